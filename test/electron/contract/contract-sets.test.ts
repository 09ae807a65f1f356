import { describe, expect, it } from 'vitest'
import {
  EVENT_NAMES,
  INTERFACE_OPERATION_NAMES,
  INVOKE_CHANNEL,
  OPERATION_NAMES,
  operations,
} from '../../../electron/contract'
import { appOperations } from '../../../electron/contract/app/operations'
import { gisOperations } from '../../../electron/contract/gis/operations'
import { visionOperations } from '../../../electron/contract/vision/operations'
import { mapOperations } from '../../../electron/contract/map/operations'
import { routingOperations } from '../../../electron/contract/routing/operations'
import { op, unionOf } from '../../../electron/contract/operation'
import { placesOperations } from '../../../electron/contract/places/operations'
import { telematicsOperations } from '../../../electron/contract/telematics/operations'
import { HandlerRegistry } from '../../../electron/core/area'
import { CLIENT_CALLS } from '../../../electron/core/client/calls'
import { CALL_OPERATIONS } from '../../../electron/cli/commands/call-run'
import { z } from 'zod'
import { createCore } from '../../../electron/core/app-core'
import { MemorySecretStore } from '../../../electron/core/secrets/memory-secret-store'
import { registerOperations, type IpcMainLike } from '../../../electron/main/ipc'
import { buildGeoApi, buildGeoEvents } from '../../../electron/preload/api'
import { startWebHost } from '../../../electron/web/server'
import { COMMANDS } from '../../../electron/cli/commands'
import { useTempDirs } from '../../support/temp-dir'

const tempDir = useTempDirs()
const sorted = (names: Iterable<string>) => [...names].sort()

describe('the one contract table', () => {
  it('is the set of preload methods, core handlers and browser-host operations', async () => {
    const core = await createCore({
      configDir: tempDir(),
      host: 'web',
      version: '0.0.0',
      secretStore: new MemorySecretStore(),
    })
    const preload = buildGeoApi(async () => undefined)
    const host = await startWebHost({ call: core.call, events: core.events, staticDir: tempDir() })
    try {
      expect(sorted(Object.keys(preload))).toEqual(sorted(OPERATION_NAMES))
      expect(sorted(Object.keys(core.handlers))).toEqual(sorted(OPERATION_NAMES))
      expect(sorted(host.operations)).toEqual(sorted(OPERATION_NAMES))
    } finally {
      await host.close()
    }
  })

  it('reaches the Electron host through one IPC channel that serves every operation', async () => {
    const channels: string[] = []
    let listener: Parameters<IpcMainLike['handle']>[1] | undefined
    registerOperations(
      { handle: (channel, l) => (channels.push(channel), (listener = l)) },
      async (name) => ({ ok: true, value: name }),
      ['app://geo-analyst'],
    )
    expect(channels).toEqual([INVOKE_CHANNEL])
    const mainFrame = { url: 'app://geo-analyst/index.html' }
    for (const name of OPERATION_NAMES) {
      await expect(listener?.({ senderFrame: mainFrame, sender: { mainFrame } }, name, {})).resolves.toEqual({
        ok: true,
        value: name,
      })
    }
  })

  it('exposes exactly the preload methods, frozen, and events only from the event table', () => {
    const api = buildGeoApi(async () => undefined)
    expect(Object.isFrozen(api)).toBe(true)
    const events = buildGeoEvents(() => () => undefined)
    expect(() => events.on('no.such.event' as never, () => undefined)).toThrow(/Unknown event/)
    expect(EVENT_NAMES.length).toBeGreaterThan(0)
  })

  it('has a CLI command for every operation that changes settings or secrets', () => {
    // The CLI drives the core through the same table; these are the commands that cover it.
    const names = COMMANDS.map((c) => c.name)
    for (const command of [
      'profile list',
      'profile show',
      'profile use',
      'profile set',
      'secret set',
      'secret status',
      'secret clear',
    ]) {
      expect(names).toContain(command)
    }
  })

  it('is the union of the area tables, and the CLI calls exactly the interface operations the client implements', () => {
    expect(sorted(OPERATION_NAMES)).toEqual(
      sorted([
        ...Object.keys(appOperations),
        ...Object.keys(mapOperations),
        ...Object.keys(placesOperations),
        ...Object.keys(routingOperations),
        ...Object.keys(telematicsOperations),
        ...Object.keys(gisOperations),
        ...Object.keys(visionOperations),
      ]),
    )
    expect(sorted(Object.keys(CLIENT_CALLS))).toEqual(sorted(INTERFACE_OPERATION_NAMES))
    expect(sorted(CALL_OPERATIONS)).toEqual(sorted(INTERFACE_OPERATION_NAMES))
    expect(() => unionOf({ 'a.x': 1 }, { 'a.x': 2 })).toThrow(/a\.x is declared twice/)
  })

  it('refuses to start without a handler for every operation, or with a handler outside the table', () => {
    const registry = new HandlerRegistry()
    registry.add(
      appOperations,
      Object.fromEntries(Object.keys(appOperations).map((k) => [k, async () => ({})])) as never,
    )
    expect(() => registry.complete()).toThrow(
      /no handler registered for project\.list, .*places\.standardize, .*gis\.layers/,
    )
    expect(() =>
      registry.add(
        { 'nope.op': op(z.object({}), z.object({}), 'not in the table') },
        { 'nope.op': async () => ({}) },
      ),
    ).toThrow(/nope\.op is not in the contract table/)
    expect(Object.keys(operations).length).toBe(OPERATION_NAMES.length)
  })
})
