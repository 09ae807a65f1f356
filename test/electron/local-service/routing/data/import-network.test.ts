import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { readNetworkFile } from '../../../../../electron/local-service/routing/data/graph-file'
import {
  importNetwork,
  type ImportProgress,
} from '../../../../../electron/local-service/routing/data/import-network'
import {
  listNetworks,
  removeNetwork,
  networkFile,
} from '../../../../../electron/local-service/routing/data/networks'
import { ImportCancelled } from '../../../../../electron/local-service/routing/data/readers/read-progress'
import { writeTown } from '../../../../support/road-town'
import { useTempDirs } from '../../../../support/temp-dir'

const meta = {
  id: 'town',
  name: 'Town',
  attribution: 'test data',
  source: 'road-town',
  built: '2026-01-01T00:00:00Z',
}

describe('road network import', () => {
  const tempDir = useTempDirs()

  it('builds the same compressed graph from .osm.pbf, OSM XML and GeoJSON', async () => {
    const dir = tempDir()
    const files = await writeTown(dir)
    const graphs = []
    for (const file of [files.pbf, files.xml, files.geojson]) {
      const out = path.join(dir, path.basename(file) + '.roadnet')
      const progress: ImportProgress[] = []
      const { header } = await importNetwork({
        file,
        outFile: out,
        meta,
        onProgress: (p) => progress.push(p),
      })
      // Intersections and way ends are nodes; the construction road is left out.
      expect(header.counts).toMatchObject({ nodes: 12, edges: 17, ways: 7 })
      expect(header.timeZone).toBe('Asia/Kolkata')
      expect(progress.at(-1)).toEqual({ phase: 'writing', fraction: 1 })
      expect(progress.map((p) => p.fraction)).toEqual(
        [...progress.map((p) => p.fraction)].sort((a, b) => a - b),
      )
      graphs.push(readNetworkFile(out).arrays)
    }
    for (const g of graphs.slice(1)) {
      expect([...g.edgeU]).toEqual([...graphs[0]!.edgeU])
      expect([...g.edgeV]).toEqual([...graphs[0]!.edgeV])
      expect([...g.edgeLenDm]).toEqual([...graphs[0]!.edgeLenDm])
      expect([...g.coordLon]).toEqual([...graphs[0]!.coordLon])
    }
    // 0.002° of longitude at 28.6° N is about 195.5 m.
    expect(graphs[0]!.edgeLenDm[0]! / 10).toBeCloseTo(195.5, 0)
  })

  it('refuses what is not an extract, naming the file and the reason', async () => {
    const dir = tempDir()
    const out = path.join(dir, 'x.roadnet')
    const bad = path.join(dir, 'notes.txt')
    writeFileSync(bad, 'hello')
    await expect(importNetwork({ file: bad, outFile: out, meta })).rejects.toThrow(/unknown extract format/)
    const noRoads = path.join(dir, 'parks.geojson')
    writeFileSync(
      noRoads,
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            properties: { leisure: 'park' },
            geometry: { type: 'Point', coordinates: [77, 28] },
          },
        ],
      }),
    )
    await expect(importNetwork({ file: noRoads, outFile: out, meta })).rejects.toThrow(/no routable roads/)
    const xml = path.join(dir, 'broken.osm')
    writeFileSync(xml, '<html><body>not osm</body></html>')
    await expect(importNetwork({ file: xml, outFile: out, meta })).rejects.toThrow(/not an OSM XML file/)
    const pbf = path.join(dir, 'broken.osm.pbf')
    writeFileSync(pbf, Buffer.from([0, 0, 0, 5, 1, 2, 3, 4, 5, 6, 7]))
    await expect(importNetwork({ file: pbf, outFile: out, meta })).rejects.toThrow(/broken.osm.pbf/)
    expect(existsSync(out)).toBe(false)
  })

  it('stops when cancelled and writes nothing', async () => {
    const dir = tempDir()
    const files = await writeTown(dir)
    const controller = new AbortController()
    controller.abort()
    const out = path.join(dir, 'cancelled.roadnet')
    await expect(
      importNetwork({ file: files.pbf, outFile: out, meta, signal: controller.signal }),
    ).rejects.toBeInstanceOf(ImportCancelled)
    expect(readdirSync(dir).filter((f) => f.includes('cancelled'))).toEqual([])
  })

  it('lists imported networks before the bundled sample and removes only imported ones', async () => {
    const workspace = tempDir()
    const files = await writeTown(tempDir())
    await importNetwork({ file: files.geojson, outFile: networkFile(workspace, 'town'), meta })
    const listed = await listNetworks(workspace)
    expect(listed.map((n) => [n.id, n.bundled])).toEqual([
      ['town', false],
      ['gothenburg-sample', true],
    ])
    expect(listed[1]!.attribution).toBe('OpenStreetMap contributors, ODbL')
    await expect(removeNetwork(workspace, 'gothenburg-sample')).rejects.toThrow(/cannot be removed/)
    await removeNetwork(workspace, 'town')
    expect((await listNetworks(workspace)).map((n) => n.id)).toEqual(['gothenburg-sample'])
  })
})
