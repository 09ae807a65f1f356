import type { LayerSymbol } from '@contract/index'
import { rgbOf } from '../../../kit/palette'
import { classOf, numberOf } from '../layers/symbology'

/**
 * The pure half of the typed-array points layer (`points-gl-layer.ts`): positions packed for the GPU,
 * colours per point from a layer style, and the matrix from map coordinates to clip space. Kept apart from
 * WebGL so it is tested without a GPU.
 */

/** Web Mercator's half circumference (m): EPSG:3857 x and y run from minus this to plus this. */
const HALF_WORLD = 20037508.342789244
const DEG = Math.PI / 180

/**
 * Longitude/latitude pairs (degrees) as EPSG:3857 positions relative to `origin` (the first point, so
 * float32 keeps sub-metre precision across a country), skipping the entries `keep` refuses.
 */
export function packPositions(
  lonLat: Float64Array,
  keep: (index: number) => boolean,
): { positions: Float32Array; indices: Uint32Array; origin: [number, number]; count: number } {
  const total = lonLat.length / 2
  const positions = new Float32Array(total * 2)
  const indices = new Uint32Array(total)
  let count = 0
  let ox = NaN
  let oy = NaN
  for (let i = 0; i < total; i++) {
    const lon = lonLat[2 * i]!
    const lat = lonLat[2 * i + 1]!
    if (Number.isNaN(lon) || Number.isNaN(lat) || !keep(i)) continue
    const x = (lon * HALF_WORLD) / 180
    // Clamped as OpenLayers' fromLonLat does (the poles are at infinity).
    const clamped = Math.max(-85.0511287798, Math.min(85.0511287798, lat))
    const y = (Math.log(Math.tan((90 + clamped) * DEG * 0.5)) * HALF_WORLD) / Math.PI
    if (count === 0) {
      ox = x
      oy = y
    }
    positions[2 * count] = x - ox
    positions[2 * count + 1] = y - oy
    indices[count] = i
    count++
  }
  return {
    positions: positions.subarray(0, count * 2),
    indices: indices.subarray(0, count),
    origin: [Number.isNaN(ox) ? 0 : ox, Number.isNaN(oy) ? 0 : oy],
    count,
  }
}

/**
 * The fill colour of each packed point (RGBA bytes, 4 per point, alpha the symbol's fill opacity) by a categorized or graduated symbol,
 * reading the field's value of the point's row (`value(rowIndex)`); null for a single symbol (one colour
 * for all, set once) or a heatmap. The same classes as the canvas style (`olStyleFunction`).
 */
export function pointColours(
  symbol: LayerSymbol,
  indices: Uint32Array,
  value: (rowIndex: number) => string | undefined,
): Uint8Array | null {
  if (symbol.kind === 'single' || symbol.kind === 'heatmap') return null
  const out = new Uint8Array(indices.length * 4)
  const other = rgbOf(symbol.other)
  const alpha = Math.round(255 * Math.max(0, Math.min(1, symbol.fillOpacity)))
  let colourOf: (v: string | undefined) => [number, number, number]
  if (symbol.kind === 'categorized') {
    const byValue = new Map(symbol.categories.map((c) => [c.value, rgbOf(c.colour)]))
    colourOf = (v) => (v === undefined ? other : (byValue.get(v) ?? other))
  } else {
    const classes = symbol.colours.map(rgbOf)
    const { breaks } = symbol
    colourOf = (v) => classes[classOf(numberOf(v), breaks)] ?? other
  }
  for (let i = 0; i < indices.length; i++) {
    const [r, g, b] = colourOf(value(indices[i]!))
    out[4 * i] = r
    out[4 * i + 1] = g
    out[4 * i + 2] = b
    out[4 * i + 3] = alpha
  }
  return out
}

/**
 * The 3×3 matrix (column-major, as WebGL takes it) from a position relative to `origin` to clip space,
 * given OpenLayers' coordinate-to-pixel transform `[a, b, c, d, e, f]` (px = a·x + c·y + e,
 * py = b·x + d·y + f) and the map's size in CSS pixels. The origin is folded in in double precision.
 */
export function clipMatrix(
  toPixel: readonly number[],
  origin: readonly [number, number],
  size: readonly [number, number],
): Float32Array {
  const [a, b, c, d, e, f] = toPixel as [number, number, number, number, number, number]
  const [ox, oy] = origin
  const [w, h] = size
  return new Float32Array([
    (a * 2) / w,
    (-b * 2) / h,
    0,
    (c * 2) / w,
    (-d * 2) / h,
    0,
    ((a * ox + c * oy + e) * 2) / w - 1,
    1 - ((b * ox + d * oy + f) * 2) / h,
    1,
  ])
}

/**
 * The CSS transform (`matrix(a, b, c, d, e, f)` about the canvas's top-left corner) that moves an image
 * drawn for one view to where the view now puts it: `drawnFor` and `now` are OpenLayers'
 * coordinate-to-pixel transforms then and now. While the map is panned, zoomed or rotated, the last drawing
 * of many points follows the map this way, as OpenLayers' own vector layers do by default, and the points
 * are drawn again when it stops.
 */
export function followTransform(drawnFor: readonly number[], now: readonly number[]): string {
  const [a, b, c, d, e, f] = drawnFor as [number, number, number, number, number, number]
  const [A, B, C, D, E, F] = now as [number, number, number, number, number, number]
  const det = a * d - b * c
  // The inverse of `drawnFor` (pixels then → map), then `now` (map → pixels now).
  const ia = d / det
  const ib = -b / det
  const ic = -c / det
  const id = a / det
  const ie = (c * f - d * e) / det
  const iF = (b * e - a * f) / det
  const m = [
    A * ia + C * ib,
    B * ia + D * ib,
    A * ic + C * id,
    B * ic + D * id,
    A * ie + C * iF + E,
    B * ie + D * iF + F,
  ]
  // Six decimals: a millionth of a pixel, and no float noise in the text.
  return `matrix(${m.map((v) => Math.round(v * 1e6) / 1e6).join(', ')})`
}

/**
 * The square in which only the last point is drawn: a third of the circle's width (outline included), at
 * least 2 CSS pixels. A point left out lies within that square of one drawn over it, which covers all but a
 * sliver of it; a 5 px circle with a 1 px outline gives 4 px squares.
 */
export function thinCell(
  /** The circle's radius with its outline, device pixels. */
  outer: number,
  /** Device pixels per CSS pixel. */
  ratio: number,
): number {
  return Math.max(2 * ratio, (2 * outer) / 3)
}

/**
 * Which points to draw in a frame, when there are many: a point hidden under a later one in the same
 * `cell` × `cell` device-pixel square is left out (the later one is drawn over it anyway; what could still
 * show of it is a sliver at most `cell`·√2 px wide), and so is a point more than one map width or height
 * outside the view (a pan of up to half a view needs no new selection). Drawing order is kept. In software
 * WebGL (no GPU: a virtual desktop, CI) every point drawn costs about a microsecond and a large circle
 * several: a million points in a country view become about the map's pixels over `cell`², a few hundred
 * thousand at most, so a frame takes a fraction of the time (docs/decisions/020-join-results-across-boundaries.md).
 *
 * `matrix` is `clipMatrix`'s; `width`, `height` the drawing buffer's size in device pixels.
 */
export function thinPoints(
  positions: Float32Array,
  matrix: Float32Array,
  width: number,
  height: number,
  cell: number,
): Uint32Array {
  const count = positions.length / 2
  const cols = Math.ceil((3 * width) / cell)
  const rows = Math.ceil((3 * height) / cell)
  const owner = new Int32Array(cols * rows).fill(-1)
  const [m0, m1, , m3, m4, , m6, m7] = matrix as unknown as number[]
  // Clip space to the cell grid over the view and one view's margin round it.
  const sx = (0.5 * width) / cell
  const sy = (0.5 * height) / cell
  const ox = (1.5 * width) / cell
  const oy = (1.5 * height) / cell
  for (let i = 0; i < count; i++) {
    const x = positions[2 * i]!
    const y = positions[2 * i + 1]!
    const gx = Math.floor((m0! * x + m3! * y + m6!) * sx + ox)
    const gy = Math.floor(oy - (m1! * x + m4! * y + m7!) * sy)
    if (gx < 0 || gy < 0 || gx >= cols || gy >= rows) continue
    owner[gy * cols + gx] = i
  }
  const keep = new Uint8Array(count)
  let kept = 0
  for (let c = 0; c < owner.length; c++) {
    const i = owner[c]!
    if (i >= 0) {
      keep[i] = 1
      kept++
    }
  }
  const out = new Uint32Array(kept)
  for (let i = 0, k = 0; i < count; i++) if (keep[i] === 1) out[k++] = i
  return out
}
