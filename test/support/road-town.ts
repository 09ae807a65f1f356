import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { OsmPbfWriter, osmGeoJson, osmXml, type PbfNode, type PbfWay } from './osm-pbf-writer'

/**
 * A small made-up town near Delhi for routing tests: a 4×3 grid of nodes 200 m apart (ids 1-12, row r and
 * column c give id r·4 + c + 1) and ways whose tags exercise the profiles:
 *
 *   9 ←—— 10 ←—— 11 ←—— 12     row 2: residential, oneway=-1 (travel westward only)
 *   |      :      ¦      |
 *   5 ——→  6 ——→  7 ——→  8     row 1: primary, oneway=yes (eastward), maxspeed 30
 *   |      :      ¦      |
 *   1 ———— 2 ———— 3 ———— 4     row 0: residential, both ways
 *
 * columns 0 and 3 residential; column 1 (:) a footway; column 2 (¦) a private service road; plus a road
 * under construction from 10 to 11 that nothing may use.
 */
export const TOWN_NODES: PbfNode[] = []
for (let r = 0; r < 3; r++)
  for (let c = 0; c < 4; c++)
    TOWN_NODES.push({ id: r * 4 + c + 1, lon: 77.2 + c * 0.002, lat: 28.6 + r * 0.002 })

export const TOWN_WAYS: PbfWay[] = [
  { id: 101, refs: [1, 2, 3, 4], tags: { highway: 'residential', name: 'South Road' } },
  { id: 102, refs: [5, 6, 7, 8], tags: { highway: 'primary', oneway: 'yes', maxspeed: '30' } },
  { id: 103, refs: [9, 10, 11, 12], tags: { highway: 'residential', oneway: '-1' } },
  { id: 104, refs: [1, 5, 9], tags: { highway: 'residential' } },
  { id: 105, refs: [4, 8, 12], tags: { highway: 'residential' } },
  { id: 106, refs: [2, 6, 10], tags: { highway: 'footway' } },
  { id: 107, refs: [3, 7, 11], tags: { highway: 'service', access: 'private' } },
  { id: 108, refs: [10, 11], tags: { highway: 'construction', construction: 'primary' } },
]

export const townNode = (id: number): [number, number] => {
  const n = TOWN_NODES.find((x) => x.id === id)!
  return [n.lon, n.lat]
}

/** Write the town as .osm.pbf, OSM XML and GeoJSON into a folder; returns the three paths. */
export async function writeTown(dir: string): Promise<{ pbf: string; xml: string; geojson: string }> {
  const pbf = path.join(dir, 'town.osm.pbf')
  const writer = new OsmPbfWriter(pbf)
  for (const n of TOWN_NODES) writer.node(n)
  for (const w of TOWN_WAYS) writer.way(w)
  await writer.close()
  const xml = path.join(dir, 'town.osm')
  writeFileSync(xml, osmXml(TOWN_NODES, TOWN_WAYS))
  const geojson = path.join(dir, 'town.geojson')
  writeFileSync(geojson, JSON.stringify(osmGeoJson(TOWN_NODES, TOWN_WAYS)))
  return { pbf, xml, geojson }
}
