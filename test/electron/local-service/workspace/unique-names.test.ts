import { readdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { importFile } from '../../../../electron/local-service/import/import-dataset'
import { Workspace, WorkspaceError } from '../../../../electron/local-service/workspace/workspace'
import { useTempDirs } from '../../../support/temp-dir'

const tempDir = useTempDirs()

const collection = (n: number) =>
  JSON.stringify({
    type: 'FeatureCollection',
    features: Array.from({ length: n }, (_, i) => ({
      type: 'Feature',
      properties: { i },
      geometry: { type: 'Point', coordinates: [70 + i / n, 20] },
    })),
  })

describe('dataset names are unique letter case aside, even under concurrency', () => {
  it('of concurrent imports whose names differ only in case, exactly one wins; the others are conflicts', async () => {
    const dir = tempDir()
    const files = await Promise.all(
      ['a', 'b', 'c', 'd'].map(async (x, i) => {
        const file = path.join(dir, `${x}.geojson`)
        await writeFile(file, collection(50 + i * 10))
        return file
      }),
    )
    for (let round = 0; round < 5; round++) {
      const wsDir = path.join(dir, `ws${round}`)
      const names = ['Roads', 'roads', 'ROADS', 'rOaDs']
      // Separate Workspace objects, as separate hosts and threads have.
      const outcomes = await Promise.allSettled(
        names.map((name, i) => importFile(new Workspace(wsDir), files[i]!, { name })),
      )
      const won = outcomes.filter((o) => o.status === 'fulfilled')
      const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected')
      expect(won, `round ${round}`).toHaveLength(1)
      for (const l of lost) {
        expect(l.reason).toBeInstanceOf(WorkspaceError)
        expect((l.reason as WorkspaceError).kind).toBe('conflict')
      }
      expect(await readdir(path.join(wsDir, 'datasets'))).toHaveLength(1)
      expect(await new Workspace(wsDir).list()).toHaveLength(1)
    }
  })
})
