import type { Feature } from 'geojson'
import type { JoinParams } from '../../contract/gis/join-params'
import { JoinInputError } from '../gis/engine/join-input'
import { MAX_SELECTED } from '../gis/engine/join-columns'
import { isGeometryColumn } from '../workspace/features'
import type { ResolvedDataset } from './resolve'
import { quoteIdent, SqlParams } from './sql'

/**
 * A join request (spec §4.5, validated by the shared contract) as one parameterised SQL statement over the
 * workspace's tables: the same query types, operators and checks as the file engine (`gis/engine/join.ts`),
 * with the same meaning — spatial operators read `operator(source, reference)`, DWithin and Area/Length on
 * the geography (WGS84 spheroid, decision 019), basic operators compare numbers as numbers and anything else
 * as text. Identifiers are quoted, every value (user geometries, distances, comparison values) a parameter.
 */

/** How a selected column's text is made from what the statement returns (see `cursor-rows.ts`). */
export type OutputKind = 'number' | 'json' | 'wkt' | 'text'

export interface JoinStatement {
  /** The join as a SELECT of the selected columns' texts, at most `limit` rows. */
  text: string
  values: unknown[]
  /** The result's columns as the file engine names them (prop1…prop8). */
  columns: { prop: string; table: 'source' | 'ref'; name: string }[]
  /** How each returned column becomes the row's text. */
  kinds: OutputKind[]
  /** The selected columns' expressions, in order. */
  outputs: string[]
  /** The placeholder of the row limit (the statement's last value). */
  limitAt: string
  /**
   * The saved dataset's columns: an expression over the join and its quoted name (the source geometry,
   * every source field, every reference field as `ref_<name>`), what `save.ts` selects with `body`.
   */
  saveColumns: { expr: string; name: string }[]
  /** The values of a statement using `saveColumns` (the join's, then the save columns' own). */
  saveValues: unknown[]
  /** The geometry column of the saved dataset. */
  saveGeometryColumn: string
  /** FROM … WHERE … of the join (without SELECT and LIMIT). */
  body: string
}

/** A side of the join: a dataset, or the user geometry (`r`, one row per feature). */
interface Side {
  alias: 's' | 'r'
  dataset?: ResolvedDataset
  /** The user geometry's property names (userGeom=true). */
  userFields?: string[]
}

/** A number as JavaScript's Number() reads it: a decimal with an optional exponent, kept finite in float8. */
const NUMBER_RE = `'^[[:space:]]*[-+]?([0-9]{1,200}(\\.[0-9]{0,200})?|\\.[0-9]{1,200})([eE][-+]?[0-9]{1,2})?[[:space:]]*$'`

function fieldNames(side: Side): string[] {
  return side.dataset ? side.dataset.fields.map((f) => f.name) : (side.userFields ?? [])
}

function requireField(side: Side, name: string, param: string, tableName: string): void {
  const fields = fieldNames(side)
  if (!fields.includes(name)) {
    throw new JoinInputError(
      400,
      `${param} "${name}" is not a field of dataset ${tableName}; fields: ${fields.slice(0, 20).join(', ')}`,
      param,
    )
  }
}

/** A spatial query reads the geometry: by its alias (`geom`…) as in a file workspace, or by its column's name. */
function isGeometryName(name: string, dataset: ResolvedDataset): boolean {
  return isGeometryColumn(name) || name === dataset.geometryColumn
}

function requireGeometry(name: string | undefined, param: string, dataset: ResolvedDataset): void {
  if (name !== undefined && !isGeometryName(name, dataset)) {
    throw new JoinInputError(
      400,
      `${param} "${name}" is not the geometry column of dataset ${dataset.name}; a spatial query reads the geometry column "geom"`,
      param,
    )
  }
}

function splitNames(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
}

/** The selected columns (the file engine's `selection`): prop1…prop8, the first eight source fields by default. */
function selection(
  p: JoinParams,
  source: ResolvedDataset,
  ref: ResolvedDataset | undefined,
): { table: 'source' | 'ref'; name: string; geometry: boolean }[] {
  const fromSource = splitNames(p.selectionParamSource)
  const fromRef = splitNames(p.selectionParamRef)
  const columns: { table: 'source' | 'ref'; name: string; geometry: boolean }[] = []
  if (fromSource.length === 0 && fromRef.length === 0) {
    for (const f of source.fields.slice(0, MAX_SELECTED))
      columns.push({ table: 'source', name: f.name, geometry: false })
    return columns
  }
  const srcSide: Side = { alias: 's', dataset: source }
  for (const name of fromSource) {
    const geometry = isGeometryName(name, source)
    if (!geometry) requireField(srcSide, name, 'selectionParamSource', source.name)
    columns.push({ table: 'source', name, geometry })
  }
  for (const name of fromRef) {
    if (!ref)
      throw new JoinInputError(400, 'selectionParamRef needs a reference dataset', 'selectionParamRef')
    const geometry = isGeometryName(name, ref)
    if (!geometry) requireField({ alias: 'r', dataset: ref }, name, 'selectionParamRef', ref.name)
    columns.push({ table: 'ref', name, geometry })
  }
  if (columns.length > MAX_SELECTED) {
    throw new JoinInputError(
      400,
      `selectionParamSource and selectionParamRef name ${columns.length} properties; the result holds at most ${MAX_SELECTED} (prop1…prop8)`,
      fromSource.length > MAX_SELECTED ? 'selectionParamSource' : 'selectionParamRef',
    )
  }
  return columns
}

/** A field's value as text, as the file engine writes a property (booleans `true`/`false`, JSON as JSON). */
function textOf(column: string, kind: string): string {
  if (kind === 'B') return `(CASE WHEN ${column} THEN 'true' WHEN NOT ${column} THEN 'false' END)`
  if (kind === 'A') return `(to_json(${column})::text)`
  return `(${column}::text)`
}

function outputKind(kind: string): OutputKind {
  if (kind === 'N') return 'number'
  if (kind === 'J' || kind === 'A') return 'json'
  return 'text'
}

/** The file engine's value key (`n:<number>` or `s:<text>`), for `=`, IN and NOT IN. */
function keyOf(text: string): string {
  return `(CASE WHEN ${text} ~ ${NUMBER_RE} THEN 'n:' || ((${text})::float8 + 0)::text ELSE 's:' || ${text} END)`
}

/** `compareValues(a, op, b)`: as numbers when both read as finite numbers, else as text (code point order). */
function compare(a: string, op: string, b: string): string {
  return `(CASE WHEN ${a} ~ ${NUMBER_RE} AND ${b} ~ ${NUMBER_RE} THEN (${a})::float8 ${op} (${b})::float8 ELSE ${a} COLLATE "C" ${op} ${b} COLLATE "C" END)`
}

/** A dataset's field as text, on side `alias`. */
function fieldText(side: Side, name: string, params: SqlParams): string {
  if (side.dataset) {
    const kind = side.dataset.fields.find((f) => f.name === name)?.kind ?? 'S'
    return textOf(`${side.alias}.${quoteIdent(name)}`, kind)
  }
  // A user geometry's property: its JSON value as the file engine's text (strings bare, others as JSON).
  const key = params.add(name, 'text')
  return `(CASE jsonb_typeof(${side.alias}.props -> ${key}) WHEN 'string' THEN ${side.alias}.props ->> ${key} WHEN 'null' THEN NULL ELSE (${side.alias}.props -> ${key})::text END)`
}

/**
 * Build the statement. `userFeatures` are the body's features when userGeom=true (sent as parameters,
 * read by ST_GeomFromGeoJSON). Throws a `JoinInputError` with the file engine's status and message for a
 * request it refuses.
 */
export function buildJoinStatement(
  p: JoinParams,
  source: ResolvedDataset,
  ref: ResolvedDataset | undefined,
  userFeatures: Feature[] | undefined,
  limit: number,
): JoinStatement {
  const params = new SqlParams()
  const sel = selection(p, source, p.userGeom ? undefined : ref)
  const src: Side = { alias: 's', dataset: source }
  const useUser = p.userGeom === true && userFeatures !== undefined
  const userFields = useUser ? [...new Set(userFeatures.flatMap((f) => Object.keys(f.properties ?? {})))] : []
  const other: Side | undefined = useUser
    ? { alias: 'r', userFields }
    : ref
      ? { alias: 'r', dataset: ref }
      : undefined
  const from = `${quoteIdent(source.schema)}.${quoteIdent(source.table)} s`
  const srcGeom = `s.${quoteIdent(source.geometryColumn)}`
  const srid = source.geometryKind === 'geography' ? 4326 : source.srid
  // The source geometry as geometry (a geography column is read as lon/lat geometry).
  const gs = source.geometryKind === 'geography' ? `${srcGeom}::geometry` : srcGeom
  const geographyOf = (g: string, kind: 'geometry' | 'geography', s: number, column: string) =>
    kind === 'geography'
      ? column
      : s === 4326
        ? `${g}::geography`
        : s === 0
          ? // A column without a declared SRID (a view's expression, CREATE TABLE AS): its values say.
            `(CASE WHEN ST_SRID(${g}) IN (0, 4326) THEN ${g}::geography ELSE ST_Transform(${g}, 4326)::geography END)`
          : `ST_Transform(${g}, 4326)::geography`
  const gsGeog = geographyOf(gs, source.geometryKind, srid, srcGeom)
  // The source's SRID: its column's, or — when the column declares none — its first value's, read once.
  const sourceSrid =
    srid !== 0
      ? String(srid)
      : `(SELECT ST_SRID(x.${quoteIdent(source.geometryColumn)}) FROM ${quoteIdent(source.schema)}.${quoteIdent(source.table)} x WHERE x.${quoteIdent(source.geometryColumn)} IS NOT NULL LIMIT 1)`
  /** A geometry of SRID `fromSrid` (0: undeclared) in the source's SRID. */
  const toSource = (g: string, fromSrid: number) =>
    srid !== 0 && fromSrid !== 0
      ? fromSrid === srid
        ? g
        : `ST_Transform(${g}, ${srid})`
      : `(CASE WHEN ST_SRID(${g}) = ${sourceSrid} THEN ${g} WHEN ST_SRID(${g}) = 0 OR ${sourceSrid} = 0 THEN ST_SetSRID(${g}, ${sourceSrid}) ELSE ST_Transform(${g}, ${sourceSrid}) END)`

  let otherFrom = ''
  let gr = ''
  let grGeog = ''
  if (useUser) {
    const geometries = params.add(
      userFeatures.map((f) => JSON.stringify(f.geometry)),
      'text[]',
    )
    const props = params.add(
      userFeatures.map((f) => JSON.stringify(f.properties ?? {})),
      'text[]',
    )
    // OFFSET 0 keeps the subquery whole: each user geometry is read once, not once per candidate row
    // (pulled up, ST_GeomFromGeoJSON ran in the join filter: 3 s instead of 30 ms for the suite's star).
    // Each user geometry is put in the source's SRID there, once.
    otherFrom = `(SELECT ${toSource('ST_GeomFromGeoJSON(u.gj)', 4326)} AS g, ST_GeomFromGeoJSON(u.gj)::geography AS gg, u.pj::jsonb AS props FROM unnest(${geometries}, ${props}) AS u(gj, pj) OFFSET 0) r`
    gr = 'r.g'
    // The same geography datum on every call: PostGIS keeps its distance tree between calls.
    grGeog = `r.gg`
  } else if (ref) {
    const refGeom = `r.${quoteIdent(ref.geometryColumn)}`
    const refSrid = ref.geometryKind === 'geography' ? 4326 : ref.srid
    const refAsGeometry = ref.geometryKind === 'geography' ? `${refGeom}::geometry` : refGeom
    otherFrom = `${quoteIdent(ref.schema)}.${quoteIdent(ref.table)} r`
    gr = toSource(refAsGeometry, refSrid)
    grGeog = geographyOf(refAsGeometry, ref.geometryKind, refSrid, refGeom)
  }

  const where: string[] = []
  let join = ''
  const spatial = (): string => {
    if (!other)
      throw new JoinInputError(
        422,
        'datasetRef is required unless userGeom=true sends a user geometry',
        'datasetRef',
      )
    requireGeometry(p.sourceProperty, 'sourceProperty', source)
    if (!useUser && ref) requireGeometry(p.refProperty, 'refProperty', ref)
    if (p.operator === 'DWithin')
      return `ST_DWithin(${gsGeog}, ${grGeog}, ${params.add(p.distance ?? 0, 'float8')})`
    return `ST_${p.operator}(${gs}, ${gr})`
  }

  switch (p.queryType) {
    case 'basic': {
      if (!other)
        throw new JoinInputError(422, 'datasetRef is required for a non-spatial (basic) query', 'datasetRef')
      const refProperty = p.refProperty as string
      requireField(src, p.sourceProperty, 'sourceProperty', source.name)
      requireField(other, refProperty, 'refProperty', other.dataset?.name ?? 'user geometry')
      const a = fieldText(src, p.sourceProperty, params)
      const b = fieldText(other, refProperty, params)
      if (p.operator === 'IN' || p.operator === 'NOT IN') {
        where.push(`${a} IS NOT NULL`)
        where.push(
          `${p.operator === 'IN' ? '' : 'NOT '}EXISTS (SELECT 1 FROM ${otherFrom} WHERE ${b} IS NOT NULL AND ${keyOf(b)} = ${keyOf(a)})`,
        )
      } else if (p.operator === '=') {
        join = ` JOIN ${otherFrom} ON ${keyOf(a)} = ${keyOf(b)}`
      } else {
        join = ` JOIN ${otherFrom} ON ${compare(a, p.operator, b)}`
      }
      break
    }
    case 'spatialOperation':
      join = ` JOIN ${otherFrom} ON ${spatial()}`
      break
    case 'functionBased': {
      requireGeometry(p.sourceProperty, 'sourceProperty', source)
      const fn = p.comparisonFunction
      const op = p.comparisonOperator as string
      const expected = p.comparisonValue
      if (fn === 'isEmpty') {
        const empty = `COALESCE(ST_IsEmpty(${gs}), true)`
        if (typeof expected !== 'boolean') where.push(op === '<>' ? 'true' : 'false')
        else where.push(`${empty} ${op === '<>' ? '<>' : '='} ${params.add(expected, 'boolean')}`)
      } else {
        const measure = `COALESCE(${fn === 'Area' ? 'ST_Area' : 'ST_Length'}(${gsGeog}), 0)`
        const n = typeof expected === 'number' ? expected : Number(expected)
        if (typeof expected === 'boolean' || !Number.isFinite(n)) where.push('false')
        else where.push(`${measure} ${op} ${params.add(n, 'float8')}`)
      }
      if (other) join = ` JOIN ${otherFrom} ON ${spatial()}`
      break
    }
  }

  const kinds: OutputKind[] = []
  const out = sel.map((c) => {
    const side = c.table === 'source' ? src : other
    const hasRow = c.table === 'source' || (join !== '' && side !== undefined)
    if (!hasRow || !side) {
      kinds.push('text')
      return 'NULL::text'
    }
    if (c.geometry) {
      kinds.push('wkt')
      const g = side.alias === 's' ? gs : gr
      return `ST_AsText(ST_Force2D(${g}))`
    }
    const kind = side.dataset?.fields.find((f) => f.name === c.name)?.kind ?? 'S'
    kinds.push(side.dataset ? outputKind(kind) : 'text')
    return fieldText(side, c.name, params)
  })
  const body = `FROM ${from}${join}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`
  const outputs = out.length ? out : ['NULL::text']
  const limitAt = params.add(limit, 'bigint')
  const text = `SELECT ${outputs.map((o, i) => `${o} AS prop${i + 1}`).join(', ')} ${body} LIMIT ${limitAt}`

  // The saved dataset: the source geometry, every source field, every reference field as ref_<name>; a
  // name given twice keeps its later value (as the file engine's properties object does). Its values follow
  // the join's, so the join's own statement has no parameter it does not use.
  const save = new SqlParams()
  save.values.push(...params.values)
  const saveNames: string[] = [source.geometryColumn, ...source.fields.map((f) => f.name)]
  const saveExprs: string[] = [srcGeom, ...source.fields.map((f) => `s.${quoteIdent(f.name)}`)]
  if (other) {
    const paired = join !== ''
    for (const name of fieldNames(other)) {
      saveNames.push(`ref_${name}`)
      saveExprs.push(
        !paired ? 'NULL::text' : other.dataset ? `r.${quoteIdent(name)}` : fieldText(other, name, save),
      )
    }
  }
  const saveColumns: { expr: string; name: string }[] = []
  saveNames.forEach((name, i) => {
    if (saveNames.indexOf(name, i + 1) < 0) saveColumns.push({ expr: saveExprs[i]!, name: quoteIdent(name) })
  })
  return {
    text,
    values: params.values,
    columns: sel.map((c, i) => ({ prop: `prop${i + 1}`, table: c.table, name: c.name })),
    kinds,
    outputs,
    limitAt,
    saveColumns,
    saveValues: save.values,
    saveGeometryColumn: source.geometryColumn,
    body,
  }
}
