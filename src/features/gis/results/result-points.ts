import type { RowTable } from '../../../../shared/rows/row-table'
import type { LonLatBox } from '../../../geo/extent'
import { detectGeometry } from '../../../geo/geometry-value'
import type { ResultsSummary } from '../../../geo/results-summary'

/** Which rows of the result are shown, by index: `has(i)` and how many. */
export interface RowSet {
  has(index: number): boolean
  readonly size: number
}

/**
 * A result column of 2-D point WKT (`POINT (lon lat)`, what the local service writes for a point geometry)
 * read straight from the answer's bytes into lon/lat pairs, without a string or an object per row: the map
 * of a million-point result needs its positions, not a million GeoJSON geometries.
 */

const QUOTE = 34
const SPACE = 32
const OPEN = 40
const CLOSE = 41
const MINUS = 45
const PLUS = 43
const DOT = 46

/** Powers of ten that are exact doubles. */
const TENS = Array.from({ length: 23 }, (_, k) => 10 ** k)

/**
 * A decimal number at `start..end` as `Number()` would read it, or NaN when it is not a plain decimal.
 * Digits and a point only (no exponent), at most 15 significant digits: the integer of the digits is exact,
 * so one division by an exact power of ten rounds once, exactly as `Number()` does.
 */
function decimalAt(b: Uint8Array, start: number, end: number): number {
  let p = start
  let negative = false
  if (b[p] === MINUS || b[p] === PLUS) {
    negative = b[p] === MINUS
    p++
  }
  let mantissa = 0
  let digits = 0
  let scale = -1
  let any = false
  for (; p < end; p++) {
    const c = b[p]!
    if (c >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48)
      if (mantissa !== 0) digits++
      if (scale >= 0) scale++
      any = true
    } else if (c === DOT && scale < 0) scale = 0
    else return NaN
  }
  if (!any || digits > 15 || scale > 22) return NaN
  const value = scale > 0 ? mantissa / TENS[scale]! : mantissa
  return negative ? -value : value
}

/** `POINT (x y)` at `start..end` (quotes included) read from the bytes, into `out`; false when it is not that plain. */
export function plainPoint(
  b: Uint8Array,
  start: number,
  end: number,
  out: Float64Array,
  at: number,
): boolean {
  if (b[start] !== QUOTE || end - start < 12) return false
  let p = start + 1
  if (b[p] !== 80 || b[p + 1] !== 79 || b[p + 2] !== 73 || b[p + 3] !== 78 || b[p + 4] !== 84) return false
  p += 5
  while (b[p] === SPACE) p++
  if (b[p] !== OPEN) return false
  p++
  while (b[p] === SPACE) p++
  const xStart = p
  while (p < end && b[p] !== SPACE) p++
  const x = decimalAt(b, xStart, p)
  while (b[p] === SPACE) p++
  const yStart = p
  while (p < end && b[p] !== SPACE && b[p] !== CLOSE) p++
  const y = decimalAt(b, yStart, p)
  while (b[p] === SPACE) p++
  if (b[p] !== CLOSE || p + 2 !== end || !Number.isFinite(x) || !Number.isFinite(y)) return false
  out[at] = x
  out[at + 1] = y
  return true
}

/**
 * The lon/lat of every row's value of `key` (NaN, NaN where a row has none, or a value that is not a
 * geometry, as the general reader has it), or null when any geometry is not a 2-D point: then the
 * geometries are read the general way. Plain `POINT (x y)` is read from the bytes; any other value is read
 * by the general reader (`detectGeometry`), so both give the same numbers.
 */
export function pointColumn(table: RowTable, key: string): Float64Array | null {
  const b = table.bytes
  const spans = table.spans(key)
  if (!spans) return null
  const { starts, ends } = spans
  const out = new Float64Array(table.length * 2).fill(NaN)
  let any = false
  for (let i = 0; i < table.length; i++) {
    const start = starts[i]!
    const end = ends[i]!
    if (end === 0) continue
    if (plainPoint(b, start, end, out, 2 * i)) {
      any = true
      continue
    }
    const value = table.cell(i, key)
    if (value === '') continue
    const g = detectGeometry(value)?.geometry
    if (!g) continue
    if (g.type !== 'Point' || g.coordinates.length !== 2) return null
    out[2 * i] = g.coordinates[0]!
    out[2 * i + 1] = g.coordinates[1]!
    any = true
  }
  return any ? out : null
}

/** Count and extent of the shown points (a result of points has no area or length). */
export function summarizePoints(lonLat: Float64Array, shown: RowSet): ResultsSummary {
  let minLon = Infinity
  let minLat = Infinity
  let maxLon = -Infinity
  let maxLat = -Infinity
  let count = 0
  const all = shown.size * 2 === lonLat.length
  for (let i = 0; i < lonLat.length / 2; i++) {
    const lon = lonLat[2 * i]!
    if (Number.isNaN(lon) || (!all && !shown.has(i))) continue
    const lat = lonLat[2 * i + 1]!
    count++
    if (lon < minLon) minLon = lon
    if (lon > maxLon) maxLon = lon
    if (lat < minLat) minLat = lat
    if (lat > maxLat) maxLat = lat
  }
  const extent: LonLatBox | null = minLon <= maxLon ? [minLon, minLat, maxLon, maxLat] : null
  return { geometryCount: count, extent, areaM2: null, lengthM: null }
}
