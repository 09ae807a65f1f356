import { quoteIdent, type DatabaseDataset } from './catalog'

/**
 * The statements that cut Mapbox vector tiles in the database (`ST_TileEnvelope`, `ST_AsMVTGeom`,
 * `ST_AsMVT`; decision 031). Values (z, x, y, the layer's name) are always parameters; identifiers (schema,
 * table, columns, PostGIS' own schema) are quoted; numbers spliced into SQL are the module's own constants
 * or integers the caller checked.
 */

/** MVT coordinates per tile side, and the buffer around the tile kept for symbols cut at its edge. */
export const TILE_EXTENT = 4096
export const TILE_BUFFER = 64
/** Thinning grid: cells per tile side (one feature per 16 × 16 pixels of a 512-pixel tile). */
export const GRID_CELLS = 32
/** From this zoom every feature is in its tile: no thinning. */
export const FULL_DETAIL_ZOOM = 14
/** Highest zoom the service cuts (OpenLayers asks for no more than the map's max zoom). */
export const MAX_ZOOM = 24
/** Properties carried per feature: the first attribute columns in table order, text cut to this many characters. */
export const MAX_PROPERTIES = 16
export const MAX_TEXT_CHARS = 256

/**
 * The margin of the rows a tile statement reads, as a share of the tile: the buffer, or one whole grid
 * cell when that is more — a cell at the tile's edge is then judged on all its rows, so the point the grid
 * keeps there is the one the overviews (built over whole cells) keep.
 */
export const READ_MARGIN = Math.max(TILE_BUFFER / TILE_EXTENT, 1 / GRID_CELLS)

/** Half the web-mercator world's width, metres. */
const ORIGIN = 20037508.342789244
const WORLD = 2 * ORIGIN

/** What a tile statement needs to know about its source, beyond the catalog's entry. */
export interface TileSource {
  dataset: DatabaseDataset
  /** The SRID of the geometries (the column's, else the first row's for an unconstrained column; 0 → lon/lat). */
  srid: number
  /** PostGIS' schema, for qualified function names. */
  postgisSchema: string
}

/** The attribute columns a tile carries and how each is read (numbers as float8, text bounded). */
export function tileProperties(dataset: DatabaseDataset): { name: string; sql: (alias: string) => string }[] {
  return dataset.fields.slice(0, MAX_PROPERTIES).map((field) => {
    const col = quoteIdent(field.name)
    if (field.type === 'number') return { name: field.name, sql: (t) => `${t}.${col}::float8` }
    if (field.type === 'boolean') return { name: field.name, sql: (t) => `${t}.${col}::boolean` }
    return { name: field.name, sql: (t) => `left(${t}.${col}::text, ${MAX_TEXT_CHARS})` }
  })
}

/** A name for the MVT geometry column that no property takes. */
export function geometryAlias(dataset: DatabaseDataset): string {
  const taken = new Set(tileProperties(dataset).map((p) => p.name))
  let alias = '__geom'
  while (taken.has(alias)) alias += '_'
  return alias
}

/** Qualified PostGIS function or type name. */
export function pgis(source: TileSource, name: string): string {
  return `${quoteIdent(source.postgisSchema)}.${name}`
}

/** The source relation, quoted. */
export function relationSql(dataset: DatabaseDataset): string {
  return `${quoteIdent(dataset.schema)}.${quoteIdent(dataset.table)}`
}

/** The row's geometry in web mercator (EPSG:3857), from the source's column. */
export function mercatorGeometry(source: TileSource, alias: string, column?: string): string {
  const col = `${alias}.${column ?? quoteIdent(source.dataset.geometryColumn)}`
  const geometry = pgis(source, 'geometry')
  if (source.dataset.geometryKind === 'geography')
    return `${pgis(source, 'ST_Transform')}(${col}::${geometry}, 3857)`
  if (source.srid === 3857) return col
  if (source.srid === 0)
    return `${pgis(source, 'ST_Transform')}(${pgis(source, 'ST_SetSRID')}(${col}, 4326), 3857)`
  return `${pgis(source, 'ST_Transform')}(${col}, 3857)`
}

/**
 * The index condition: the column `&&` the tile's envelope (with the buffer) in the column's own SRID, so
 * the table's GiST index answers it. z, x, y are `$1`–`$3`. A mercator rectangle is a lon/lat rectangle;
 * for other SRIDs the envelope is densified before it is transformed, so its box holds the curved edges.
 */
export function indexCondition(source: TileSource, alias: string): string {
  const f = (name: string) => pgis(source, name)
  const col = `${alias}.${quoteIdent(source.dataset.geometryColumn)}`
  const envelope = `${f('ST_TileEnvelope')}($1, $2, $3, margin => ${READ_MARGIN})`
  if (source.dataset.geometryKind === 'geography')
    return `${col} && ${f('ST_Transform')}(${envelope}, 4326)::${f('geography')}`
  if (source.srid === 3857) return `${col} && ${envelope}`
  if (source.srid === 4326) return `${col} && ${f('ST_Transform')}(${envelope}, 4326)`
  if (source.srid === 0) return `${col} && ${f('ST_SetSRID')}(${f('ST_Transform')}(${envelope}, 4326), 0)`
  return `${col} && ${f('ST_Transform')}(${f('ST_Segmentize')}(${envelope}, ${WORLD}::float8 / (2 ^ $1) / 16), ${source.srid})`
}

/** The global thinning grid's cell size at zoom `zoom` (an SQL expression of `$1` by default). */
export function cellSize(zoom = '$1'): string {
  return `(${WORLD}::float8 / ((2 ^ ${zoom}) * ${GRID_CELLS}))`
}

/** A cell index along one axis of the global grid (cells of the tiles at the same zoom line up). */
export function cellOf(coordinate: string, zoom = '$1'): string {
  return `floor((${coordinate} + ${ORIGIN}) / ${cellSize(zoom)})::int8`
}

/** A tile index along one axis at a zoom given as a number (mercator y grows north here: an index, not XYZ). */
export function tileOf(coordinate: string, zoom: number): string {
  return `floor((${coordinate} + ${ORIGIN}) / (${WORLD}::float8 / ${2 ** zoom}))::int8`
}

/** The final step: MVT geometries clipped to the tile, encoded as one layer named `$4`. */
function encode(source: TileSource, rows: string, geomAlias: string, props: string[]): string {
  const f = (name: string) => pgis(source, name)
  return `
m AS (
  SELECT ${f('ST_AsMVTGeom')}(r.g, ${f('ST_TileEnvelope')}($1, $2, $3), ${TILE_EXTENT}, ${TILE_BUFFER}, true)
           AS ${quoteIdent(geomAlias)}${props.map((p, i) => `, r.p${i} AS ${quoteIdent(p)}`).join('')}
    FROM ${rows} r
)
SELECT ${f('ST_AsMVT')}(m.*, $4, ${TILE_EXTENT}, ${quoteTextLiteral(geomAlias)}) AS tile FROM m`
}

/** A string constant, for the one name the statement itself chose (the geometry column's alias). */
function quoteTextLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`
}

/** The source's rows in the tile: the row's geometry `raw` (as stored) and the properties `p0…`. */
function sourceColumns(source: TileSource): string {
  const props = tileProperties(source.dataset)
  const col = `t.${quoteIdent(source.dataset.geometryColumn)}`
  return `${col} AS raw${props.map((p, i) => `, ${p.sql('t')} AS p${i}`).join('')}`
}

/** Every feature of the tile (z ≥ 14, and the benchmark's plain anchor). Parameters: z, x, y, layer name. */
export function plainTileSql(source: TileSource): string {
  const props = tileProperties(source.dataset).map((p) => p.name)
  return `WITH s AS (SELECT ${sourceColumns(source)} FROM ${relationSql(source.dataset)} t
   WHERE ${indexCondition(source, 't')}),
r AS (SELECT ${mercatorGeometry(source, 's', 'raw')} AS g${props.map((_, i) => `, s.p${i}`).join('')} FROM s),${encode(source, 'r', geometryAlias(source.dataset), props)}`
}

/** Web-mercator metres of a lon/lat expression, computed (no ST_Transform): x, then y (latitude clamped). */
function mercatorOfLonLat(lon: string, lat: string): [string, string] {
  return [
    `(${lon}) * ${ORIGIN / 180}`,
    `ln(tan(radians(45 + greatest(least(${lat}, 85.0511287798), -85.0511287798) / 2))) * ${ORIGIN / Math.PI}`,
  ]
}

/**
 * The thinning columns of a row, from its stored geometry `col`: `mx`/`my` (web-mercator metres of the point,
 * or of the centre of the box) and `size` (the box's larger side, 0 for a point). Lon/lat geometries are
 * converted by formula, not `ST_Transform`, so thinning a dense tile transforms only the features kept.
 */
export function thinningColumns(source: TileSource, col: string): string {
  const f = (name: string) => pgis(source, name)
  const g = source.dataset.geometryKind === 'geography' ? `${col}::${f('geometry')}` : col
  const lonLat = source.dataset.geometryKind === 'geography' || source.srid === 4326 || source.srid === 0
  const m = lonLat || source.srid === 3857 ? g : `${f('ST_Transform')}(${g}, 3857)`
  const convert = (x: string, y: string): [string, string] => (lonLat ? mercatorOfLonLat(x, y) : [x, y])
  if (source.dataset.geometryType === 'POINT') {
    const [mx, my] = convert(`${f('ST_X')}(${m})`, `${f('ST_Y')}(${m})`)
    return `${mx} AS mx, ${my} AS my, 0::float8 AS size`
  }
  const [x0, y0] = convert(`${f('ST_XMin')}(${m})`, `${f('ST_YMin')}(${m})`)
  const [x1, y1] = convert(`${f('ST_XMax')}(${m})`, `${f('ST_YMax')}(${m})`)
  return `(${x0} + ${x1}) / 2 AS mx, (${y0} + ${y1}) / 2 AS my, greatest(${x1} - ${x0}, ${y1} - ${y0}) AS size`
}

/**
 * The tile thinned by the global pixel grid (`GRID_CELLS` per tile side): of the features whose box is
 * smaller than a cell, one per cell (the one whose coordinates hash lowest, the same choice overviews make,
 * so a feature seen at one zoom stays at the next); larger features all. Only the features kept are
 * transformed and encoded. Parameters: z, x, y, layer name.
 */
export function gridTileSql(source: TileSource): string {
  const props = tileProperties(source.dataset).map((p) => p.name)
  const cols = ['raw', ...props.map((_, i) => `p${i}`)].join(', ')
  const col = `t.${quoteIdent(source.dataset.geometryColumn)}`
  const point = source.dataset.geometryType === 'POINT'
  return `WITH s AS MATERIALIZED (
  SELECT ${cols}, ${cellOf('mx')} AS cx, ${cellOf('my')} AS cy, ${priority('mx', 'my')} AS pr, size
    FROM (SELECT ${sourceColumns(source)}, ${thinningColumns(source, col)} FROM ${relationSql(source.dataset)} t
           WHERE ${indexCondition(source, 't')}) u),
k AS (
  (SELECT DISTINCT ON (cx, cy) ${cols} FROM s WHERE s.size < ${cellSize()} ORDER BY cx, cy, pr)
  ${point ? '' : `UNION ALL SELECT ${cols} FROM s WHERE s.size >= ${cellSize()}`}
),
r AS (SELECT ${mercatorGeometry(source, 'k', 'raw')} AS g${props.map((_, i) => `, k.p${i}`).join('')} FROM k),${encode(source, 'r', geometryAlias(source.dataset), props)}`
}

/** Which feature of a cell is kept: a hash of its mercator coordinates (stable, spread evenly). */
export function priority(x: string, y: string): string {
  return `(hashfloat8(${x}) # hashfloat8(${y}))`
}

/** A tile from one overview level (a thinned copy: `g` in 3857, `p0…`). Parameters: z, x, y, layer name. */
export function overviewTileSql(source: TileSource, overviewTable: string): string {
  const props = tileProperties(source.dataset).map((p) => p.name)
  const f = (name: string) => pgis(source, name)
  const cols = ['g', ...props.map((_, i) => `p${i}`)].join(', ')
  return `WITH s AS (
  SELECT ${cols} FROM ${overviewTable} o
   WHERE o.g && ${f('ST_TileEnvelope')}($1, $2, $3, margin => ${READ_MARGIN})
),${encode(source, 's', geometryAlias(source.dataset), props)}`
}

/** A tile address checked: whole numbers, z in 0…MAX_ZOOM, x and y in 0…2^z − 1. */
export interface TileAddress {
  z: number
  x: number
  y: number
}

/** Why a `{z}/{x}/{y}.mvt` address is refused, or the address. */
export function parseTileAddress(
  z: string,
  x: string,
  yWithExtension: string,
): { ok: true; tile: TileAddress } | { ok: false; field: 'z' | 'x' | 'y'; message: string } {
  if (!/^\d{1,3}$/.test(z) || Number(z) > MAX_ZOOM)
    return {
      ok: false,
      field: 'z',
      message: `z: must be a whole number from 0 to ${MAX_ZOOM} (got "${z.slice(0, 20)}")`,
    }
  const zoom = Number(z)
  const last = 2 ** zoom - 1
  const yText = /^(.*)\.mvt$/.exec(yWithExtension)?.[1]
  if (yText === undefined)
    return {
      ok: false,
      field: 'y',
      message: `y: the last segment must be {y}.mvt (got "${yWithExtension.slice(0, 20)}")`,
    }
  for (const [field, text] of [
    ['x', x],
    ['y', yText],
  ] as const) {
    if (!/^\d{1,8}$/.test(text) || Number(text) > last)
      return {
        ok: false,
        field,
        message: `${field}: must be a whole number from 0 to ${last} at zoom ${zoom} (got "${text.slice(0, 20)}")`,
      }
  }
  return { ok: true, tile: { z: zoom, x: Number(x), y: Number(yText) } }
}
