import { fork, type ChildProcess } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createCore } from '../../../electron/core/app-core'
import { MemorySecretStore } from '../../../electron/core/secrets/memory-secret-store'
import { Workspace } from '../../../electron/local-service/workspace/workspace'
import {
  LocalServiceLauncher,
  type LaunchedService,
  type ServiceChild,
} from '../../../electron/main/local-service-launcher'
import { feature, square } from '../local-service/helpers'
import { useTempDirs } from '../../support/temp-dir'

const ENTRY = path.resolve(import.meta.dirname, '../../../electron/local-service/process-entry.ts')
const tempDir = useTempDirs()
const children: ChildProcess[] = []
const services: LaunchedService[] = []
afterEach(async () => {
  for (const service of services.splice(0)) await service.close()
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL')
})

/** The service's entry in a Node child process, as Electron's utility process runs it in the app. */
function nodeFork(): ServiceChild & { process: ChildProcess } {
  const child = fork(ENTRY, [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  children.push(child)
  return {
    process: child,
    postMessage: (request) => void child.send(request),
    onMessage: (listener) => void child.on('message', listener),
    onExit: (listener) => void child.once('exit', (code) => listener(code)),
    kill: () => void child.kill('SIGKILL'),
  }
}

/** A child that never answers, or answers only what it is scripted to. */
function silentChild(onRequest: (type: string, child: ServiceChild) => void = () => {}) {
  const messages: Array<(m: unknown) => void> = []
  const exits: Array<(code: number | null) => void> = []
  const child = {
    killed: false,
    postMessage: (request: { type: string }) => onRequest(request.type, child),
    onMessage: (l: (m: unknown) => void) => void messages.push(l),
    onExit: (l: (code: number | null) => void) => void exits.push(l),
    kill() {
      child.killed = true
      for (const l of exits) l(null)
    },
    say: (m: unknown) => messages.forEach((l) => l(m)),
    exit: (code: number | null) => exits.forEach((l) => l(code)),
  }
  return child
}

async function workspaceWithParcels(): Promise<string> {
  const dir = tempDir()
  await new Workspace(dir).create('parcels', [feature(square(70, 10, 71, 11), { owner: 'A' })], {
    source: 'test',
  })
  return dir
}

describe('the local service in its own process', () => {
  it('starts in a child process, reports where it listens, answers real HTTP there and stops on request', async () => {
    let forked: ReturnType<typeof nodeFork> | undefined
    const launcher = new LocalServiceLauncher({
      fork: () => (forked = nodeFork()),
      service: { workspaceDir: await workspaceWithParcels(), sampleData: false },
    })
    const service = await launcher.start()
    services.push(service)
    expect(forked!.process.pid).not.toBe(process.pid)
    expect(service.urls.mgis_v2_url).toBe(`http://127.0.0.1:${service.port}/mgis/v2`)
    const layers = await fetch(`${service.urls.mgis_v2_url}/getLayersList`, {
      headers: { authorization: `Bearer ${service.token}` },
    })
    expect(layers.status).toBe(200)
    expect(await layers.json()).toMatchObject({ data: [{ layername: 'parcels', featureCount: 1 }] })
    const exited = new Promise((resolve) => forked!.process.once('exit', resolve))
    await service.close()
    expect(await exited).toBe(0)
    await expect(fetch(`${service.urls.mgis_v2_url}/getLayersList`)).rejects.toThrow()
  })

  it('reports why the service did not start, and the process is gone', async () => {
    const notAFolder = path.join(tempDir(), 'workspace')
    writeFileSync(notAFolder, 'a file where the workspace folder should be')
    let forked: ReturnType<typeof nodeFork> | undefined
    const launcher = new LocalServiceLauncher({
      fork: () => (forked = nodeFork()),
      service: { workspaceDir: notAFolder, sampleData: false },
    })
    await expect(launcher.start()).rejects.toThrow(/EEXIST|ENOTDIR|not a directory|file already exists/)
    await expect
      .poll(() => forked!.process.exitCode !== null || forked!.process.signalCode !== null)
      .toBe(true)
  })

  it('gives up on a service that does not report ready in time, killing it', async () => {
    const child = silentChild()
    const launcher = new LocalServiceLauncher({
      fork: () => child,
      service: { workspaceDir: '/nowhere' },
      handshakeTimeoutMs: 50,
    })
    await expect(launcher.start()).rejects.toThrow(/did not report ready within/)
    expect(child.killed).toBe(true)
  })

  it('kills a service that does not stop when asked', async () => {
    const child = silentChild((type, c) => {
      if (type === 'start')
        setTimeout(() =>
          (c as ReturnType<typeof silentChild>).say({
            type: 'ready',
            port: 1,
            urls: {},
            token: 't',
            licenceKey: 'k',
          }),
        )
    })
    const launcher = new LocalServiceLauncher({
      fork: () => child,
      service: { workspaceDir: '/x' },
      stopTimeoutMs: 50,
    })
    const service = await launcher.start()
    await service.close()
    expect(child.killed).toBe(true)
  })

  it('a crash is reported; the core starts a new service on the next call; a crash loop is refused', async () => {
    const launcher = new LocalServiceLauncher({
      fork: nodeFork,
      service: { workspaceDir: await workspaceWithParcels(), sampleData: false },
      maxCrashes: 2,
    })
    const core = await createCore({
      configDir: tempDir(),
      dataDir: tempDir(),
      host: 'electron',
      version: '0',
      secretStore: new MemorySecretStore(),
      startLocalService: () => launcher.start(),
    })
    try {
      const layers = () => core.call('gis.layers', {})
      await expect(layers()).resolves.toMatchObject({
        ok: true,
        value: { datasets: [{ layername: 'parcels' }] },
      })
      for (let crash = 1; crash <= 2; crash++) {
        const running = children.at(-1)!
        const exited = new Promise((resolve) => running.once('exit', resolve))
        running.kill('SIGKILL')
        await exited
        await expect.poll(async () => (await core.settings.activeProfile()).urls).toBeNull()
        if (crash < 2) {
          // A new process answers the next call.
          await expect(layers()).resolves.toMatchObject({ ok: true })
          expect(children).toHaveLength(crash + 1)
        }
      }
      const refused = await layers()
      expect(refused).toMatchObject({ ok: false, error: { failureClass: 'local-configuration' } })
      expect(JSON.stringify(refused)).toMatch(
        /ended unexpectedly 2 times.*killed by a signal.*restart the app/,
      )
    } finally {
      await core.close()
    }
  }, 60_000)
})
