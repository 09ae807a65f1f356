// The row writer (split from join.ts, issue 28): a join's pairs as result rows (spec §2.4) and as the
// features of a saved result.
import type { Geometry } from 'geojson'
import type { DatasetFeature } from '../../workspace/features'
import { decodeText } from '../../workspace/text-column'
import { destroy, toGeos, toWkt, type Geos } from '../../engine/geos'
import { JsonChunkWriter } from '../../engine/json-chunks'
import type { PairList } from './pair-list'
import { countOf, geometryAt, type FeatureTable } from './feature-table'
import type { Selection } from './join-columns'

function text(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

const utf8 = new TextEncoder()
/** Rows written per block (see `writeResultRows`), and the mark of a row without a feature on that side. */
const BLOCK = 1024
const MISSING = Symbol('no feature')

/** A property's value as the JSON string literal of its text (`text(value)`), into `out`. */
function writeText(out: JsonChunkWriter, value: unknown): void {
  if (typeof value === 'number') out.numberText(value)
  else if (typeof value === 'string') out.string(value)
  else out.string(text(value))
}

/**
 * Result rows of spec §2.4 as UTF-8 JSON (`{"prop1":"…"},…`, without the brackets) written into `out`:
 * string members prop1…propN, one per selected column, with no object or string per row; a reference
 * feature's values are encoded once per join however many rows it is in.
 */
export function writeResultRows(
  geos: Geos,
  pairs: PairList,
  sel: Selection,
  source: FeatureTable,
  ref: FeatureTable | undefined,
  out: JsonChunkWriter,
): void {
  const wkt = (g: Geometry | null): string => {
    if (!g) return ''
    const ptr = toGeos(geos, g)
    try {
      return toWkt(geos, ptr)
    } finally {
      destroy(geos, ptr)
    }
  }
  // A table's values are encoded once per join when its features come back in two rows or more on average
  // (a reference polygon holding thousands of points); otherwise they are written straight.
  const memoFor = (table: FeatureTable | undefined) =>
    table && countOf(table) * 2 <= pairs.length
      ? new Array<Uint8Array | undefined>(countOf(table))
      : undefined
  const columns = sel.columns.map((c, i) => {
    const table = c.table === 'source' ? source : ref
    const memo = memoFor(table)
    const text = !c.geometry ? table?.points?.textColumn(c.name) : undefined
    return {
      key: utf8.encode(`${i > 0 ? ',' : '{'}"prop${i + 1}":`),
      fromSource: c.table === 'source',
      geometry: c.geometry,
      name: c.name,
      table,
      memo,
      // A point table's: its features' count, and the column's values (its coordinates for the geometry;
      // a text column's bytes).
      count: table?.points ? table.points.count : -1,
      column: table?.points && !c.geometry ? table.points.reader(c.name) : undefined,
      text,
      // What a block of rows reads of this column, gathered before they are written (see below): values;
      // a point's coordinates; where a text's bytes start (-1 for none: "") and end.
      values: memo ? undefined : new Array<unknown>(BLOCK),
      xs: (c.geometry || text) && !memo ? new Float64Array(BLOCK) : undefined,
      ys: (c.geometry || text) && !memo ? new Float64Array(BLOCK) : undefined,
    }
  })
  const empty = utf8.encode('""')
  const rowEnd = utf8.encode(columns.length > 0 ? '}' : '{}')
  const n = pairs.length
  // Rows go in blocks: first each column's values of the block are gathered in a tight loop, then the rows
  // are written from them. The features of a block's rows lie scattered in memory (a reference's sources
  // in the source's order); a short gathering loop lets the processor wait for many of them at once, where
  // the writing loop between two reads would wait for each in turn (200,000 rows of districts × points:
  // ids written in 120 ms read row by row, 30 ms gathered first).
  for (let b = 0; b < n; b += BLOCK) {
    const m = Math.min(BLOCK, n - b)
    for (let k = 0; k < columns.length; k++) {
      const c = columns[k]!
      const values = c.values
      if (!values) continue
      const xs = c.xs
      const ys = c.ys
      const points = c.table?.points
      if (points) {
        // A point table's values straight from its columns (the geometry's, when not a number pair, made
        // where it is written).
        if (c.text) {
          // A text column's: where each value's bytes are (written from them, without a string).
          const { offsets, nulls } = c.text
          const starts = xs!
          const ends = ys!
          for (let j = 0; j < m; j++) {
            const at = c.fromSource ? pairs.source(b + j) : pairs.reference(b + j)
            if (at < 0 || at >= c.count || (nulls !== undefined && nulls[at] === 1)) starts[j] = -1
            else {
              starts[j] = offsets[at]!
              ends[j] = offsets[at + 1]!
            }
          }
          continue
        }
        const column = c.column
        const px = points.xs
        const py = points.ys
        for (let j = 0; j < m; j++) {
          const at = c.fromSource ? pairs.source(b + j) : pairs.reference(b + j)
          if (at < 0 || at >= c.count) values[j] = MISSING
          else if (xs) {
            values[j] = null
            xs[j] = px[at]!
            ys![j] = py[at]!
          } else values[j] = column!(at)
        }
        continue
      }
      const features = c.table?.features
      for (let j = 0; j < m; j++) {
        const at = c.fromSource ? pairs.source(b + j) : pairs.reference(b + j)
        const feature = at >= 0 && features ? features[at] : undefined
        if (!feature) values[j] = MISSING
        else if (!xs) values[j] = feature.properties[c.name]
        else {
          const g = feature.geometry
          values[j] = g
          if (g?.type === 'Point' && g.coordinates.length >= 2) {
            xs[j] = g.coordinates[0]!
            ys![j] = g.coordinates[1]!
          } else xs[j] = NaN
        }
      }
    }
    for (let j = 0; j < m; j++) {
      const i = b + j
      if (i > 0) out.byte(0x2c)
      for (let k = 0; k < columns.length; k++) {
        const c = columns[k]!
        out.bytes(c.key)
        const values = c.values
        const texts = c.text
        if (texts && values) {
          // A text from its bytes (no feature, or no value: "").
          const start = c.xs![j]!
          const end = c.ys![j]!
          if (start < 0) out.bytes(empty)
          else if (texts.plain) out.plainString(texts.bytes, start, end)
          else if (!out.utf8String(texts.bytes, start, end)) out.string(decodeText(texts.bytes, start, end))
          continue
        }
        if (values) {
          const value = values[j]
          if (value === MISSING) out.bytes(empty)
          else if (!c.xs) writeText(out, value)
          // A point's WKT is written here as GEOS writes it, when its coordinates allow (nearly always).
          else if (Number.isNaN(c.xs[j]!) || !out.pointWkt(c.xs[j]!, c.ys![j]!))
            out.string(
              wkt(
                c.count >= 0
                  ? geometryAt(c.table!, c.fromSource ? pairs.source(i) : pairs.reference(i))
                  : (value as Geometry | null),
              ),
            )
          continue
        }
        const at = c.fromSource ? pairs.source(i) : pairs.reference(i)
        const table = c.table
        const points = table?.points
        const feature = points || at < 0 ? undefined : table?.features[at]
        if (points ? at < 0 || at >= c.count : !feature) {
          out.bytes(empty)
          continue
        }
        const memo = c.memo!
        let value = memo[at]
        if (!value) {
          const literal = JSON.stringify(
            c.geometry
              ? wkt(points ? points.geometry(at) : feature!.geometry)
              : text(points ? points.property(at, c.name) : feature!.properties[c.name]),
          )
          value = memo[at] = utf8.encode(literal)
        }
        out.bytes(value)
      }
      out.bytes(rowEnd)
    }
  }
}

/** Result rows of spec §2.4 as one JSON array text (`[{"prop1":"…"},…]`). */
export function resultRowsJson(
  geos: Geos,
  pairs: PairList,
  sel: Selection,
  source: FeatureTable,
  ref?: FeatureTable,
): string {
  const parts: Buffer[] = []
  const out = new JsonChunkWriter((bytes) => parts.push(Buffer.from(bytes)))
  writeResultRows(geos, pairs, sel, source, ref, out)
  out.flush()
  return '[' + Buffer.concat(parts).toString('utf8') + ']'
}

/** Features of a saved result: the source geometry, every source property, every reference property as `ref_<name>`. */
export function resultFeatures(pairs: PairList, source: FeatureTable, ref?: FeatureTable): DatasetFeature[] {
  return pairs.toArray().map(([s, r]) => {
    const sf = source.features[s]!
    const properties: Record<string, unknown> = { ...sf.properties }
    const rf = r >= 0 ? ref?.features[r] : undefined
    if (ref)
      for (const name of ref.fields) properties[`ref_${name}`] = rf ? (rf.properties[name] ?? null) : null
    return { geometry: sf.geometry, properties }
  })
}
