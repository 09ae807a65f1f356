import type pg from 'pg'

/** Where the generated points gather: eight city centres (lon, lat, spread in degrees) over a country. */
export const POINT_CENTRES = [
  { name: 'Delhi', lon: 77.2, lat: 28.6, spread: 0.6 },
  { name: 'Mumbai', lon: 72.9, lat: 19.1, spread: 0.5 },
  { name: 'Kolkata', lon: 88.4, lat: 22.6, spread: 0.5 },
  { name: 'Chennai', lon: 80.3, lat: 13.1, spread: 0.4 },
  { name: 'Bengaluru', lon: 77.6, lat: 13.0, spread: 0.4 },
  { name: 'Hyderabad', lon: 78.5, lat: 17.4, spread: 0.4 },
  { name: 'Jaipur', lon: 75.8, lat: 26.9, spread: 0.5 },
  { name: 'Patna', lon: 85.1, lat: 25.6, spread: 0.7 },
] as const

/**
 * A point table made in SQL with a fixed seed (`setseed`): `count` points, 40 % spread evenly over
 * lon 68–97, lat 8–36, 60 % in normal clusters around `POINT_CENTRES`; columns id, name, value, kind, geom
 * (Point, 4326) with a GiST index, analysed. The same seed gives the same table.
 */
export async function createPointTable(
  db: pg.Client,
  /** The table's name as SQL (quoted as needed), e.g. `work.places`. */
  relation: string,
  count: number,
  seed = 0.31,
): Promise<void> {
  const centres = POINT_CENTRES.map((c, i) => `(${i}, ${c.lon}, ${c.lat}, ${c.spread})`).join(', ')
  const name = relation
  await db.query(`SELECT setseed(${seed})`)
  await db.query(`CREATE TABLE ${name} AS
    WITH centres(i, lon, lat, s) AS (VALUES ${centres})
    SELECT g AS id, 'place ' || g AS name, (random() * 1000)::int AS value,
           (ARRAY['shop', 'school', 'clinic', 'bank'])[1 + (g % 4)] AS kind,
           CASE WHEN r < 0.4 THEN ST_SetSRID(ST_MakePoint(68 + random() * 29, 8 + random() * 28), 4326)
           ELSE (SELECT ST_SetSRID(ST_MakePoint(
                  c.lon + c.s * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()),
                  c.lat + c.s * sqrt(-2 * ln(1 - random())) * sin(2 * pi() * random())), 4326)
                   FROM centres c WHERE c.i = (g % ${POINT_CENTRES.length})) END::geometry(Point, 4326) AS geom
      FROM (SELECT g, random() AS r FROM generate_series(1, ${Math.trunc(count)}) g) s`)
  await db.query(`CREATE INDEX ON ${name} USING gist (geom)`)
  await db.query(`ANALYZE ${name}`)
}

/** The XYZ tiles (512-pixel tiles, as OpenLayers' vector tiles) a `width`×`height` view centred at lon/lat needs at zoom z. */
export function viewportTiles(
  lon: number,
  lat: number,
  z: number,
  width = 1280,
  height = 800,
): { z: number; x: number; y: number }[] {
  const size = 512 * 2 ** z
  const px = ((lon + 180) / 360) * size
  const py = ((1 - Math.asinh(Math.tan((lat * Math.PI) / 180)) / Math.PI) / 2) * size
  const last = 2 ** z - 1
  const clamp = (v: number) => Math.min(last, Math.max(0, v))
  const tiles: { z: number; x: number; y: number }[] = []
  for (let x = clamp(Math.floor((px - width / 2) / 512)); x <= clamp(Math.floor((px + width / 2) / 512)); x++)
    for (
      let y = clamp(Math.floor((py - height / 2) / 512));
      y <= clamp(Math.floor((py + height / 2) / 512));
      y++
    )
      tiles.push({ z, x, y })
  return tiles
}
