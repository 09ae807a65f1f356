import { readFile, rm } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXPORT_FORMATS, exportDataset } from '../../../../electron/local-service/export/export-dataset'
import { importFile } from '../../../../electron/local-service/import/import-dataset'
import { Workspace } from '../../../../electron/local-service/workspace/workspace'
import { feature, square, tempDir } from '../helpers'
import { rfc7946Problems, ringSignedArea } from '../../../../shared/geojson'

let dir: string
let ws: Workspace
const original = [
  feature(square(0, 0, 1, 1), { name: 'one, "quoted"', count: 3, ok: true }),
  feature(
    {
      type: 'LineString',
      coordinates: [
        [0, 0],
        [2, 1],
      ],
    },
    { name: 'two', count: null, ok: false },
  ),
]
beforeAll(async () => {
  dir = await tempDir('geo-export-')
  ws = new Workspace(path.join(dir, 'ws'))
  await ws.create('mixed', original, { source: 'test' })
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('export round trip', () => {
  for (const format of EXPORT_FORMATS) {
    it(`${format}: exported, imported back, same geometries and properties`, async () => {
      const out = path.join(dir, `mixed.${format}`)
      expect(await exportDataset(ws, 'mixed', format, out)).toBe(2)
      await importFile(ws, out, { name: `back_${format}` })
      const back = (await ws.read(`back_${format}`)).features
      expect(back.map((f) => f.geometry)).toEqual(original.map((f) => f.geometry))
      expect(back.map((f) => f.properties.name)).toEqual(['one, "quoted"', 'two'])
      expect(back[0]!.properties.count).toBe(3)
    })
  }

  it('CSV carries the geometry as WKT in the first column', async () => {
    const out = path.join(dir, 'plain.csv')
    await exportDataset(ws, 'mixed', 'csv', out)
    const text = await readFile(out, 'utf8')
    expect(text.split('\r\n')[0]).toBe('wkt,name,count,ok')
    expect(text).toContain('"POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0))","one, ""quoted""",3,true')
  })

  it('CSV writes formula-like text so that spreadsheets do not run it, numbers as they are', async () => {
    const cells = [
      '=HYPERLINK("http://x")',
      '+1+2',
      '-2+3',
      '@SUM(A1)',
      '\tTAB',
      '\rCR',
      '-12.5',
      '+3',
      'a=b',
    ]
    await ws.create(
      'formulas',
      cells.map((text, i) => feature({ type: 'Point', coordinates: [i, 0] }, { text, n: -i })),
      { source: 'test' },
    )
    const out = path.join(dir, 'formulas.csv')
    await exportDataset(ws, 'formulas', 'csv', out)
    const lines = (await readFile(out, 'utf8')).split('\r\n')
    expect(lines[0]).toBe('wkt,text,n')
    expect(lines.slice(1, 10)).toEqual([
      'POINT (0 0),"\'=HYPERLINK(""http://x"")",0',
      "POINT (1 0),'+1+2,-1",
      "POINT (2 0),'-2+3,-2",
      "POINT (3 0),'@SUM(A1),-3",
      "POINT (4 0),'\tTAB,-4",
      'POINT (5 0),"\'\rCR",-5',
      'POINT (6 0),-12.5,-6',
      'POINT (7 0),+3,-7',
      'POINT (8 0),a=b,-8',
    ])
  })
  it('GeoJSON follows RFC 7946: a clockwise ring is written counter-clockwise, its hole clockwise', async () => {
    const clockwise = [
      [0, 0],
      [0, 4],
      [4, 4],
      [4, 0],
      [0, 0],
    ]
    const counterClockwiseHole = [
      [1, 1],
      [2, 1],
      [2, 2],
      [1, 2],
      [1, 1],
    ]
    await ws.create(
      'wound',
      [feature({ type: 'Polygon', coordinates: [clockwise, counterClockwiseHole] }, {})],
      {
        source: 'test',
      },
    )
    const out = path.join(dir, 'wound.geojson')
    await exportDataset(ws, 'wound', 'geojson', out)
    const written = JSON.parse(await readFile(out, 'utf8'))
    const [outer, hole] = written.features[0].geometry.coordinates
    expect(ringSignedArea(outer)).toBeGreaterThan(0)
    expect(ringSignedArea(hole)).toBeLessThan(0)
    expect(rfc7946Problems(written)).toEqual([])
    expect(written.name).toBe('wound')
  })
})
