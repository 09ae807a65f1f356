import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { importFile } from '../../../../electron/local-service/import/import-dataset'
import { Workspace } from '../../../../electron/local-service/workspace/workspace'
import { useTempDirs } from '../../../support/temp-dir'

const tempDir = useTempDirs()

describe('a property named as the geometry column', () => {
  it('is kept as <name>_2 in every feature, in its place, never dropped', async () => {
    const dir = tempDir()
    const file = path.join(dir, 'parcels.geojson')
    const point = (x: number) => ({ type: 'Point', coordinates: [x, 20] })
    await writeFile(
      file,
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            geometry: point(77),
            properties: { id: 1, Shape: 'round', shape_2: 'kept', geom: 7 },
          },
          { type: 'Feature', geometry: point(78), properties: { id: 2, name: 'b' } },
        ],
      }),
    )
    const workspace = new Workspace(path.join(dir, 'ws'))
    const manifest = await importFile(workspace, file)
    expect(manifest.fields.map((f) => f.name)).toEqual(['id', 'Shape_2', 'shape_2', 'geom_2', 'name'])
    const { features } = await workspace.read('parcels')
    expect(features.map((f) => f.properties)).toEqual([
      { id: 1, Shape_2: 'round', shape_2: 'kept', geom_2: 7, name: null },
      { id: 2, Shape_2: null, shape_2: null, geom_2: null, name: 'b' },
    ])
  })
})
