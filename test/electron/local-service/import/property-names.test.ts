import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXPORT_FORMATS, exportDataset } from '../../../../electron/local-service/export/export-dataset'
import { importFile } from '../../../../electron/local-service/import/import-dataset'
import { useTempDirs } from '../../../support/temp-dir'
import { runService, square, TOKEN, type Running } from '../helpers'

const tempDir = useTempDirs()

/**
 * Property names that are also names of `Object.prototype` members. JSON.parse makes them own keys; code
 * that builds objects as `o[name] = value` drops a `__proto__` value (or makes it the prototype), and code
 * that reads `o[name]` for a feature without that key gets the inherited member.
 */
const parse = (json: string) => JSON.parse(json) as Record<string, unknown>
const SOURCE = [
  parse('{"__proto__":"north","name":"a","constructor":"c","toString":"t"}'),
  parse('{"__proto__":"south","name":"b"}'),
]
const FIELDS = ['__proto__', 'name', 'constructor', 'toString']
/** Every field on every feature, null where the feature has no value. */
const STORED = [
  parse('{"__proto__":"north","name":"a","constructor":"c","toString":"t"}'),
  parse('{"__proto__":"south","name":"b","constructor":null,"toString":null}'),
]

let running: Running
const origin = () => `http://127.0.0.1:${running.service.port}`
const headers = () => ({ authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' })

beforeAll(async () => {
  running = await runService({})
})
afterAll(() => running.stop())

/** Own keys and values, in order: what a user sees of the attributes (never an inherited member). */
const own = (properties: Record<string, unknown>) => Object.entries(properties)

async function importThroughService(name: string, geometries: GeoJSON.Geometry[]) {
  const file = path.join(tempDir(), `${name}.geojson`)
  const features = SOURCE.map((properties, i) => ({
    type: 'Feature',
    properties,
    geometry: geometries[i],
  }))
  await writeFile(file, JSON.stringify({ type: 'FeatureCollection', features }))
  return fetch(`${origin()}/local/datasets/import`, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({ path: file, name }),
  })
}

describe('a property named __proto__ (or constructor, toString) is an ordinary attribute', () => {
  it.each([
    ['polygons', [square(70, 20, 71, 21), square(72, 20, 73, 21)]],
    [
      'points',
      [
        { type: 'Point', coordinates: [70.5, 20.5] },
        { type: 'Point', coordinates: [72.5, 20.5] },
      ],
    ],
  ] as Array<[string, GeoJSON.Geometry[]]>)(
    '%s: imported through the service, listed, served, joined on it',
    async (name, geometries) => {
      const imported = await importThroughService(name, geometries)
      expect(imported.status, await imported.clone().text()).toBe(201)
      expect(
        ((await imported.json()) as { fields: Array<{ name: string }> }).fields.map((f) => f.name),
      ).toEqual(FIELDS)

      const list = (await (
        await fetch(`${origin()}/mgis/v2/getLayersList`, { headers: headers() })
      ).json()) as {
        data: Array<{ layername: string; fields: Array<{ name: string }> }>
      }
      expect(list.data.find((d) => d.layername === name)?.fields.map((f) => f.name)).toEqual(FIELDS)

      const served = (await (
        await fetch(`${origin()}/local/datasets/${name}/features`, { headers: headers() })
      ).json()) as { features: Array<{ properties: Record<string, unknown> }> }
      expect(served.features.map((f) => own(f.properties))).toEqual(STORED.map(own))

      const joined = await running.join({
        queryType: 'basic',
        operator: '=',
        datasetSource: name,
        sourceProperty: '__proto__',
        datasetRef: name,
        refProperty: '__proto__',
        selectionParamSource: '__proto__,name,constructor',
      })
      expect(joined.status).toBe(200)
      expect(joined.json.result).toEqual([
        { prop1: 'north', prop2: 'a', prop3: 'c' },
        { prop1: 'south', prop2: 'b', prop3: '' },
      ])
    },
  )

  it.each(EXPORT_FORMATS)('exported as %s and imported back, the attributes are the same', async (format) => {
    const out = path.join(tempDir(), `names.${format}`)
    expect(await exportDataset(running.workspace, 'polygons', format, out)).toBe(2)
    const back = await importFile(running.workspace, out, { name: `back_${format}` })
    expect(back.fields.map((f) => f.name)).toEqual(FIELDS)
    const { features } = await running.workspace.read(`back_${format}`)
    expect(features.map((f) => own(f.properties))).toEqual(STORED.map(own))
  })
})
