import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLocalService } from '../../../electron/local-service/index'
import { feature, runService, TOKEN, type Running } from './helpers'

/**
 * A saving join whose client goes away while the result is written: its worker is terminated inside the
 * write. What the user must see: nothing half-written stays behind in the workspace's `.staging`, the
 * workspace lists what it listed before, and the name can be saved again.
 */

const STAGING = '.staging'

async function stagingEntries(dir: string): Promise<string[]> {
  return readdir(path.join(dir, STAGING)).catch(() => [] as string[])
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms: number): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const found = await probe()
    if (found !== undefined) return found
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
}

async function layerNames(svc: Running): Promise<string[]> {
  const response = await fetch(`${svc.service.urls.mgis_v2_url}/getLayersList`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  })
  expect(response.status).toBe(200)
  return ((await response.json()) as { data: Array<{ layername: string }> }).data.map((d) => d.layername)
}

// Every point matches the one reference row: the saved result is as large as the source (tens of MB to
// serialize and write), so the save is still being written when the client is seen to leave.
const POINTS = 60_000
const pad = 'x'.repeat(200)
const points = Array.from({ length: POINTS }, (_, i) =>
  feature({ type: 'Point', coordinates: [(i % 600) / 10, Math.floor(i / 600) / 10] }, { k: 'same', i, pad }),
)
const one = [feature({ type: 'Point', coordinates: [0, 0] }, { k: 'same', note: pad })]
const saving = (name: string) => ({
  queryType: 'basic',
  datasetSource: 'points',
  datasetRef: 'one',
  sourceProperty: 'k',
  refProperty: 'k',
  operator: '=',
  saveAsNewDataset: 'true',
  newDatasetNme: name,
})

describe('a saving join whose client leaves mid-write', () => {
  let svc: Running
  beforeAll(async () => {
    svc = await runService({ points, one }, { pool: { workers: 1 } })
  }, 120_000)
  afterAll(() => svc.stop())

  it('leaves no staging folder, and the workspace as it was', async () => {
    const before = await layerNames(svc)
    expect(before).toEqual(['one', 'points'])
    const client = new AbortController()
    const pending = svc.join(saving('kept'), undefined, { signal: client.signal }).catch((e: Error) => e)
    // The moment the result's staging folder appears, the client goes away.
    const entry = await waitFor(
      'the save to start writing',
      async () => (await stagingEntries(svc.dir))[0],
      60_000,
    )
    client.abort()
    expect(await pending).toBeInstanceOf(Error)
    expect(entry).toMatch(/^kept\./)
    // The worker is terminated inside the write; once it has stopped its folder is removed.
    await waitFor(
      'the staging folder to be removed',
      async () => ((await stagingEntries(svc.dir)).length === 0 ? true : undefined),
      10_000,
    ).catch(async (error: Error) => {
      throw new Error(`${error.message}; left: ${(await stagingEntries(svc.dir)).join(', ')}`)
    })
    // Nothing half-saved appeared, and the name is free: the same save, waited for, succeeds.
    expect(await layerNames(svc)).toEqual(before)
    const again = await svc.join(saving('kept'))
    expect(again.status).toBe(200)
    expect(again.json.savedDataset).toBe('kept')
    expect(await layerNames(svc)).toEqual(['kept', 'one', 'points'])
    expect((await svc.workspace.manifest('kept')).featureCount).toBe(POINTS)
    expect(await stagingEntries(svc.dir)).toEqual([])
  }, 120_000)

  it('a service stopped while a save is written leaves no staging folder; the next start lists the same', async () => {
    const before = await layerNames(svc)
    const pending = svc.join(saving('late')).catch((e: Error) => e)
    await waitFor('the save to start writing', async () => (await stagingEntries(svc.dir))[0], 60_000)
    await svc.service.close()
    await pending
    // Closing waits for the stopped workers' folders to be removed: nothing to wait for after it.
    expect(await stagingEntries(svc.dir)).toEqual([])
    const again = await startLocalService({ workspaceDir: svc.dir, token: TOKEN, sampleData: false })
    try {
      const response = await fetch(`${again.urls.mgis_v2_url}/getLayersList`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      })
      const data = ((await response.json()) as { data: Array<{ layername: string }> }).data
      expect(data.map((d) => d.layername)).toEqual(before)
    } finally {
      await again.close()
    }
  }, 120_000)
})
