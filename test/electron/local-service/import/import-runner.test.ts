import { readdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { describe, expect, it } from 'vitest'
import { ImportError } from '../../../../electron/local-service/import/crs'
import { ImportCancelled, importInWorker } from '../../../../electron/local-service/import/import-runner'
import { Workspace, WorkspaceError } from '../../../../electron/local-service/workspace/workspace'
import { useTempDirs } from '../../../support/temp-dir'
import { TOKEN, runService } from '../helpers'

const tempDir = useTempDirs()

/** A CSV of `n` point rows. */
function pointsCsv(n: number): string {
  const rows = ['id,name,lon,lat,pop']
  for (let i = 0; i < n; i++) {
    rows.push(
      `${i},place ${i},${(68 + (i % 2900) / 100).toFixed(4)},${(8 + (Math.floor(i / 2900) % 2900) / 100).toFixed(4)},${(i * 7) % 100000}`,
    )
  }
  return rows.join('\n') + '\n'
}

async function fileWith(dir: string, name: string, content: string): Promise<string> {
  const file = path.join(dir, name)
  await writeFile(file, content)
  return file
}

/** The workspace holds no dataset and no staging leftovers. */
async function untouched(ws: Workspace): Promise<void> {
  expect(await readdir(path.join(ws.dir, 'datasets')).catch(() => [])).toEqual([])
  expect(await readdir(path.join(ws.dir, '.staging')).catch(() => [])).toEqual([])
  expect(await ws.list()).toEqual([])
}

describe('imports run in a worker with a time and a memory budget', () => {
  it('imports in a worker, telling its phases, and the dataset appears', async () => {
    const dir = tempDir()
    const ws = new Workspace(path.join(dir, 'ws'))
    const phases: string[] = []
    const manifest = await importInWorker(ws, await fileWith(dir, 'wells.csv', pointsCsv(100)), {
      onPhase: (p) => phases.push(p),
    })
    expect(phases).toEqual(['reading', 'storing'])
    expect(manifest).toMatchObject({ name: 'wells', featureCount: 100, geometryType: 'POINT' })
    expect((await ws.read('wells')).features).toHaveLength(100)
  })

  it('refuses a bad file in the worker as an ImportError naming the problem', async () => {
    const dir = tempDir()
    const ws = new Workspace(path.join(dir, 'ws'))
    const file = await fileWith(dir, 'bad.geojson', '{"type":"featurecollection","features":[]}')
    await expect(importInWorker(ws, file)).rejects.toThrow(ImportError)
    await expect(importInWorker(ws, file)).rejects.toThrow(/"featurecollection" is not a GeoJSON type/)
    await untouched(ws)
  })

  it('stops an import over its time limit; the workspace is untouched', async () => {
    const dir = tempDir()
    const ws = new Workspace(path.join(dir, 'ws'))
    const file = await fileWith(dir, 'slow.csv', pointsCsv(200_000))
    const error = await importInWorker(ws, file, { limits: { timeoutMs: 300 } }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ImportError)
    expect((error as Error).message).toMatch(
      /took longer than 0\.3 s, the import time limit.*nothing was imported/,
    )
    await untouched(ws)
  })

  it('stops an import over its memory limit; the workspace is untouched', async () => {
    const dir = tempDir()
    const ws = new Workspace(path.join(dir, 'ws'))
    const file = await fileWith(dir, 'big.csv', pointsCsv(300_000))
    const error = await importInWorker(ws, file, { limits: { maxHeapMb: 24 } }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ImportError)
    expect((error as Error).message).toMatch(/needed more than 24 MiB of memory, the import memory limit/)
    await untouched(ws)
  })

  it('stops an import cancelled while it writes the dataset; the workspace is untouched', async () => {
    const dir = tempDir()
    const ws = new Workspace(path.join(dir, 'ws'))
    const file = await fileWith(dir, 'cancel.csv', pointsCsv(200_000))
    const controller = new AbortController()
    const running = importInWorker(ws, file, {
      signal: controller.signal,
      onPhase: (p) => p === 'storing' && controller.abort(),
    })
    await expect(running).rejects.toBeInstanceOf(ImportCancelled)
    await untouched(ws)
  })

  it('concurrent imports in several workers whose names differ only in case: exactly one wins', async () => {
    const dir = tempDir()
    const wsDir = path.join(dir, 'ws')
    const names = ['Wells', 'wells', 'WELLS']
    const files = await Promise.all(names.map((_, i) => fileWith(dir, `f${i}.csv`, pointsCsv(2000 + i))))
    const outcomes = await Promise.allSettled(
      names.map((name, i) => importInWorker(new Workspace(wsDir), files[i]!, { name })),
    )
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1)
    for (const o of outcomes) {
      if (o.status === 'rejected') expect((o.reason as WorkspaceError).kind).toBe('conflict')
    }
    expect(await readdir(path.join(wsDir, 'datasets'))).toHaveLength(1)
    expect(await readdir(path.join(wsDir, '.staging')).catch(() => [])).toEqual([])
  })
})

describe('the serving thread keeps answering while a big import runs', () => {
  it('keeps the serving thread mostly idle while an import posted to the service runs, and answers meanwhile', async () => {
    const running = await runService({})
    try {
      const dir = tempDir()
      const file = await fileWith(dir, 'towns.csv', pointsCsv(300_000))
      const origin = new URL(running.service.urls.mgis_url).origin
      const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }
      const order: string[] = []
      const before = performance.eventLoopUtilization()
      const imported = fetch(`${origin}/local/datasets/import`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ path: file }),
      }).then((r) => order.push(`import ${r.status}`))
      // The import is under way once its staging folder exists; ask for the layer list then.
      for (let i = 0; i < 6000 && order.length === 0; i++) {
        const staging = await readdir(path.join(running.dir, '.staging')).catch(() => [] as string[])
        if (staging.some((n) => n.startsWith('towns.'))) break
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      const layers = await fetch(`${running.service.urls.mgis_v2_url}/getLayersList`, { headers })
      order.push(`layers ${layers.status}`)
      await imported
      const busy = performance.eventLoopUtilization(before).utilization
      expect(order).toEqual(['layers 404', 'import 201'])
      // Parsing and writing 300,000 rows on this thread would keep it busy nearly all the time.
      expect(busy).toBeLessThan(0.5)
    } finally {
      await running.stop()
    }
  }, 180_000)
})
