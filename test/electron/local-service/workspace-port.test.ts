import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { GeoFailure } from '../../../electron/base/geo-failure'
import { createWorkspacePort } from '../../../electron/local-service'
import { Workspace } from '../../../electron/local-service/workspace/workspace'
import { feature, square } from './helpers'
import { useTempDirs } from '../../support/temp-dir'

const tempDir = useTempDirs()

/** A file on disk holding `text`, as a host's grant or upload hands it to the port. */
function onDisk(name: string, text: string): string {
  const file = path.join(tempDir(), name)
  writeFileSync(file, text)
  return file
}

async function failure(promise: Promise<unknown>): Promise<GeoFailure> {
  try {
    await promise
  } catch (error) {
    if (error instanceof GeoFailure) return error
    throw error
  }
  throw new Error('expected a failure')
}

describe('the local workspace port', () => {
  it('gives a dataset as RFC 7946 GeoJSON text with its properties', async () => {
    const dir = tempDir()
    await new Workspace(dir).create(
      'parcels',
      [feature(square(70, 10, 71, 11), { owner: 'A', area: 12.5 }), feature(null, { owner: 'B', area: 0 })],
      { source: 'test' },
    )
    const port = createWorkspacePort(dir)
    const out = await port.features('Parcels') // letter case aside, as the workspace finds names
    expect(out).toMatchObject({ name: 'parcels', featureCount: 2 })
    expect(JSON.parse(out.geojson)).toEqual({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', id: 0, properties: { owner: 'A', area: 12.5 }, geometry: square(70, 10, 71, 11) },
        { type: 'Feature', id: 1, properties: { owner: 'B', area: 0 }, geometry: null },
      ],
    })
    expect(await failure(port.features('missing'))).toMatchObject({
      error: { failureClass: 'not-found', field: 'name' },
    })
  })

  it('imports a CSV named by its file, and refuses the same name as a conflict without overwriting', async () => {
    const dir = tempDir()
    const port = createWorkspacePort(dir)
    const info = await port.importPath({
      path: onDisk('upload.csv', 'name,lon,lat\nA,72.8,19.0\nB,77.2,28.6\n'),
      fileName: 'wells 2024.csv',
    })
    expect(info).toMatchObject({ layername: 'wells_2024', geometrytype: 'POINT', featureCount: 2 })
    expect(info.fields).toContainEqual({ name: 'name', type: 'string' })
    const conflict = await failure(
      port.importPath({
        path: onDisk('wells 2024.csv', 'name,lon,lat\nC,70,20\n'),
        fileName: 'wells 2024.csv',
      }),
    )
    expect(conflict.error).toMatchObject({ failureClass: 'conflict', field: 'name' })
    expect((await new Workspace(dir).manifest('wells_2024')).featureCount).toBe(2)
  })

  it('refuses a bad file naming the problem, and a bad name naming the rule; the workspace is unchanged', async () => {
    const dir = tempDir()
    const port = createWorkspacePort(dir)
    const bad = await failure(
      port.importPath({
        path: onDisk(
          'roads.geojson',
          '{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[500,10]}}]}',
        ),
        fileName: 'roads.geojson',
      }),
    )
    expect(bad.error).toMatchObject({ failureClass: 'validation', field: 'file' })
    expect(bad.error.message).toMatch(/feature 0/)
    const badName = await failure(
      port.importPath({ path: onDisk('x.geojson', '{}'), fileName: 'x.geojson', name: '../escape' }),
    )
    expect(badName.error).toMatchObject({ failureClass: 'validation', field: 'name' })
    expect(badName.error.message).toMatch(/letters, digits/)
    expect(await new Workspace(dir).list()).toEqual([])
  })

  it('names invalid features with a code the caller can act on, and imports the rest when asked to skip them', async () => {
    const dir = tempDir()
    const port = createWorkspacePort(dir)
    const file = onDisk(
      'zones.geojson',
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          { type: 'Feature', properties: { n: 1 }, geometry: { type: 'Point', coordinates: [77, 28] } },
          {
            type: 'Feature',
            properties: { n: 2 },
            geometry: {
              type: 'Polygon',
              coordinates: [
                [
                  [77, 28],
                  [78, 28],
                ],
              ],
            },
          },
        ],
      }),
    )
    const refused = await failure(port.importPath({ path: file, fileName: 'zones.geojson' }))
    expect(refused.error).toMatchObject({ failureClass: 'validation', code: 'invalid-features' })
    expect(refused.error.message).toMatch(/1 of 2 features is invalid: feature 1: .*at least 4 positions/)
    expect(await new Workspace(dir).list()).toEqual([])
    const info = await port.importPath({ path: file, fileName: 'zones.geojson', skipInvalid: true })
    expect(info).toMatchObject({ layername: 'zones', featureCount: 1, skippedInvalid: 1 })
  })
})
