import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../../../electron/core/secrets/memory-secret-store'
import {
  CommandLog,
  humanText,
  OUTPUT_TESTED,
  SCRIPT_LICENCE_KEY,
  SCRIPT_TOKEN,
  scriptJson,
  startScriptService,
  WELLS_AND_ZONES,
  WELLS_IN_ZONES,
  WELLS_IN_ZONES_ROWS,
  type ScriptService,
} from '../../../support/cli-script'
import { cli } from '../cli-harness'

/**
 * The workspace commands (import, datasets, export, also under `gis`) and the spatial-analytics commands
 * (gis layers, gis join) read as a script reads them: --json through JSON.parse, the text without it. One
 * built-in local service for the file, reached as the profile "Script"; the workspace commands work on its
 * workspace.
 */

let svc: ScriptService
const store = new MemorySecretStore()
const log = new CommandLog()
type Loose = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

function run(args: string[]) {
  log.note(args)
  return cli(args, svc.env, store)
}

const RIVERS = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { river: 'Yamuna' },
      geometry: {
        type: 'LineString',
        coordinates: [
          [77.2, 28.6],
          [77.3, 28.5],
        ],
      },
    },
    {
      type: 'Feature',
      properties: { river: 'Hindon' },
      geometry: {
        type: 'LineString',
        coordinates: [
          [77.4, 28.7],
          [77.45, 28.6],
        ],
      },
    },
  ],
}

beforeAll(async () => {
  svc = await startScriptService(WELLS_AND_ZONES)
  await writeFile(path.join(svc.dir, 'rivers.geojson'), JSON.stringify(RIVERS))
  expect((await cli(['profile', 'set', 'Script', ...svc.profileFlags], svc.env, store)).code).toBe(0)
  expect((await cli(['profile', 'use', 'Script'], svc.env, store)).code).toBe(0)
  await store.set('Script:token', SCRIPT_TOKEN)
  await store.set('Script:licence-key', SCRIPT_LICENCE_KEY)
}, 60_000)
afterAll(() => svc?.close())

describe.each(['', 'gis '])('geo-analyst %simport / datasets / export', (prefix) => {
  const command = (...words: string[]) => [...(prefix ? ['gis'] : []), ...words]
  const name = (base: string) => `${base}${prefix ? '_gis' : ''}`

  it('import: the manifest as JSON, a sentence as text', async () => {
    const file = path.join(svc.dir, 'rivers.geojson')
    const text = humanText(
      await run(command('import', file, '--name', name('rivers'))),
      `${prefix}import`,
      `Imported ${name('rivers')}: 2 LINESTRING features, 1 fields.`,
    )
    expect(text.trim().split('\n')).toHaveLength(1)
    const manifest = scriptJson<Loose>(
      await run(command('import', file, '--name', name('rivers_json'), '--json')),
      `${prefix}import --json`,
    )
    expect(manifest).toMatchObject({
      name: name('rivers_json'),
      geometryType: 'LINESTRING',
      featureCount: 2,
      fields: [{ name: 'river', type: 'string' }],
      extent: [77.2, 28.5, 77.45, 28.7],
    })
  })

  it('datasets: an array of datasets as JSON, a table as text', async () => {
    const list = scriptJson<Loose[]>(await run(command('datasets', '--json')), `${prefix}datasets --json`)
    expect(Array.isArray(list)).toBe(true)
    expect(list.find((d) => d.name === 'wells')).toMatchObject({ geometryType: 'POINT', featureCount: 4 })
    expect(list.map((d) => d.name)).toEqual(expect.arrayContaining(['wells', 'zones', name('rivers')]))
    const text = humanText(
      await run(command('datasets')),
      `${prefix}datasets`,
      /^NAME\s+TYPE\s+FEATURES\s+SOURCE$/m,
    )
    expect(text).toMatch(/^wells\s+POINT\s+4\s+cli-script test$/m)
    expect(text).toMatch(/^zones\s+POLYGON\s+2\s+/m)
  })

  it('export: what was written as JSON, a sentence as text; the file holds the features', async () => {
    const out = path.join(svc.dir, `wells${prefix ? '-gis' : ''}.geojson`)
    humanText(
      await run(command('export', 'wells', '--format', 'geojson', '--out', out)),
      `${prefix}export`,
      `Exported 4 features of wells to ${out}.`,
    )
    const csv = path.join(svc.dir, `wells${prefix ? '-gis' : ''}.csv`)
    const written = scriptJson<Loose>(
      await run(command('export', 'wells', '--format', 'csv', '--out', csv, '--json')),
      `${prefix}export --json`,
    )
    expect(written).toEqual({ name: 'wells', format: 'csv', out: csv, features: 4 })
    const fc = JSON.parse(await readFile(out, 'utf8')) as { features: Array<{ properties: Loose }> }
    expect(fc.features.map((f) => f.properties.name).sort()).toEqual([
      'Farm well',
      'North well',
      'Sea well',
      'Temple well',
    ])
    expect((await readFile(csv, 'utf8')).split('\n')[0]).toMatch(/name/)
  })
})

describe('geo-analyst gis layers / gis join on the profile "Script"', () => {
  it('gis layers: an array of datasets as JSON, a table as text', async () => {
    const layers = scriptJson<Loose[]>(await run(['gis', 'layers', '--json']), 'gis layers --json')
    expect(Array.isArray(layers)).toBe(true)
    expect(layers.find((l) => l.layername === 'wells')).toMatchObject({
      geometrytype: 'POINT',
      featureCount: 4,
      fields: expect.arrayContaining([{ name: 'depth', type: 'number' }]),
    })
    const text = humanText(await run(['gis', 'layers']), 'gis layers', /^NAME\s+TYPE\s+FEATURES\s+SOURCE$/m)
    expect(text).toMatch(/^wells\s+POINT\s+4\s+/m)
    expect(text).toMatch(/^zones\s+POLYGON\s+2\s+/m)
  })

  it('gis join --json: the rows an array of objects with the requested columns', async () => {
    const joined = scriptJson<Loose>(
      await run(['gis', 'join', ...WELLS_IN_ZONES, '--json']),
      'gis join --json',
    )
    expect(Array.isArray(joined.rows)).toBe(true)
    expect(joined.rows).toHaveLength(3)
    expect(joined.rows).toEqual(expect.arrayContaining(WELLS_IN_ZONES_ROWS))
    expect(joined).toMatchObject({ rowCount: 3, partial: false, runId: expect.any(String) })
    expect(joined.columns).toEqual([
      { prop: 'prop1', table: 'source', name: 'name' },
      { prop: 'prop2', table: 'source', name: 'depth' },
      { prop: 'prop3', table: 'ref', name: 'label' },
    ])
    // The bytes the rows came as are not printed (nor as a map of numbers).
    expect(joined).not.toHaveProperty('rowsJson')
  })

  it('gis join: a table with the columns named, every row, and a summary', async () => {
    const text = humanText(
      await run(['gis', 'join', ...WELLS_IN_ZONES]),
      'gis join',
      /^name \(source\)\s+depth \(source\)\s+label \(ref\)$/m,
      /^North well\s+12\.5\s+Old town$/m,
      /^Temple well\s+40\s+Old town$/m,
      /^Farm well\s+7\s+Fields$/m,
      /^3 rows in \d+ ms$/m,
    )
    expect(text).not.toContain('Sea well')
  })

  it('ran each of its commands with --json and without', () => {
    expect(log.missing(OUTPUT_TESTED['workspace-gis-output']!)).toEqual([])
  })
})
