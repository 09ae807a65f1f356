import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { importFile } from '../../../../electron/local-service/import/import-dataset'
import {
  checkDatasetName,
  Workspace,
  WorkspaceError,
} from '../../../../electron/local-service/workspace/workspace'
import { useTempDirs } from '../../../support/temp-dir'
import { feature, runService, square } from '../helpers'

const tempDir = useTempDirs()

const RESERVED = ['CON', 'con', 'Prn', 'aux', 'NUL', 'COM1', 'com9', 'LPT1', 'lpt9', 'con.txt', 'NUL.geojson']

describe('dataset names reserved on Windows', () => {
  it('are refused on every OS, in any letter case and with an extension, naming why', () => {
    for (const name of RESERVED) {
      let error: unknown
      try {
        checkDatasetName(name)
      } catch (e) {
        error = e
      }
      expect(error, name).toBeInstanceOf(WorkspaceError)
      expect((error as WorkspaceError).kind).toBe('invalid-name')
      expect((error as Error).message, name).toMatch(/reserved on Windows/)
    }
  })

  it('are not confused with names that merely start like one', () => {
    for (const name of ['console', 'COM10', 'LPT0', 'nullable', 'aux_roads', 'CON-1', 'com']) {
      expect(() => checkDatasetName(name), name).not.toThrow()
    }
  })

  it('are refused when a file would give one, and by a saving join; the workspace is unchanged', async () => {
    const dir = tempDir()
    const ws = new Workspace(path.join(dir, 'ws'))
    const file = path.join(dir, 'con.geojson')
    await writeFile(file, JSON.stringify({ type: 'Point', coordinates: [77, 28] }))
    await expect(importFile(ws, file)).rejects.toThrow(/"con" is reserved on Windows/)
    await expect(importFile(ws, file, { name: 'LPT3' })).rejects.toThrow(/reserved on Windows/)
    await expect(ws.create('aux', [feature(square(0, 0, 1, 1), {})], { source: 't' })).rejects.toThrow(
      /reserved on Windows/,
    )
    expect(await ws.list()).toEqual([])

    const running = await runService({ zones: [feature(square(70, 10, 71, 11), { n: 'a' })] })
    try {
      const saved = await running.join({
        queryType: 'spatialOperation',
        datasetSource: 'zones',
        operator: 'Intersects',
        sourceProperty: 'geom',
        datasetRef: 'zones',
        refProperty: 'geom',
        saveAsNewDataset: true,
        newDatasetNme: 'Com1',
      })
      expect(saved.status).toBe(400)
      expect(String(saved.json.message)).toMatch(/reserved on Windows/)
      expect((await running.workspace.list()).map((m) => m.name)).toEqual(['zones'])
    } finally {
      await running.stop()
    }
  })
})
