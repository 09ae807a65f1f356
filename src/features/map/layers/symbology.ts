import * as chromatic from 'd3-scale-chromatic'
import { ckmeans, equalIntervalBreaks, quantileSorted } from 'simple-statistics'
import {
  MAX_CATEGORIES,
  MAX_CLASSES,
  MIN_CLASSES,
  type CategorizedSymbol,
  type ClassificationMethod,
  type GraduatedSymbol,
  type HeatmapSymbol,
  type LayerStyle,
  type QualitativePalette,
  type RampPalette,
  type SingleSymbol,
} from '@contract/index'
import type { GeometryFamily, LayerField, LegendItem, SymbolKind } from './layer-model'

/**
 * Symbology as pure functions: palettes (ColorBrewer and matplotlib's perceptual ramps through
 * d3-scale-chromatic), classification (quantiles, equal interval, natural breaks by Ckmeans — the optimal
 * 1-D clustering Jenks approximates — from simple-statistics), and the legend a style draws.
 */

/** `rgb(r, g, b)` (d3's interpolators) or `#rrggbb` as `#rrggbb`. */
export function toHex(colour: string): string {
  if (/^#[0-9a-f]{6}$/i.test(colour)) return colour.toLowerCase()
  const m = /^rgb\((\d+),\s*(\d+),\s*(\d+)\)$/.exec(colour)
  if (!m) throw new Error(`not a colour: ${colour}`)
  return `#${[m[1], m[2], m[3]].map((n) => Number(n).toString(16).padStart(2, '0')).join('')}`
}

const QUALITATIVE: Record<QualitativePalette, readonly string[]> = {
  Tableau10: chromatic.schemeTableau10,
  Set2: chromatic.schemeSet2,
  Dark2: chromatic.schemeDark2,
  Set1: chromatic.schemeSet1,
  Paired: chromatic.schemePaired,
  Category10: chromatic.schemeCategory10,
  Accent: chromatic.schemeAccent,
  Set3: chromatic.schemeSet3,
}

type Scheme = ReadonlyArray<readonly string[]>
const RAMPS: Record<RampPalette, { interpolate: (t: number) => string; scheme?: Scheme }> = {
  Viridis: { interpolate: chromatic.interpolateViridis },
  Cividis: { interpolate: chromatic.interpolateCividis },
  Magma: { interpolate: chromatic.interpolateMagma },
  Inferno: { interpolate: chromatic.interpolateInferno },
  Plasma: { interpolate: chromatic.interpolatePlasma },
  Blues: { interpolate: chromatic.interpolateBlues, scheme: chromatic.schemeBlues },
  Greens: { interpolate: chromatic.interpolateGreens, scheme: chromatic.schemeGreens },
  Oranges: { interpolate: chromatic.interpolateOranges, scheme: chromatic.schemeOranges },
  Reds: { interpolate: chromatic.interpolateReds, scheme: chromatic.schemeReds },
  Purples: { interpolate: chromatic.interpolatePurples, scheme: chromatic.schemePurples },
  YlOrRd: { interpolate: chromatic.interpolateYlOrRd, scheme: chromatic.schemeYlOrRd },
  YlGnBu: { interpolate: chromatic.interpolateYlGnBu, scheme: chromatic.schemeYlGnBu },
  OrRd: { interpolate: chromatic.interpolateOrRd, scheme: chromatic.schemeOrRd },
  PuBuGn: { interpolate: chromatic.interpolatePuBuGn, scheme: chromatic.schemePuBuGn },
  RdBu: { interpolate: chromatic.interpolateRdBu, scheme: chromatic.schemeRdBu },
  RdYlBu: { interpolate: chromatic.interpolateRdYlBu, scheme: chromatic.schemeRdYlBu },
  RdYlGn: { interpolate: chromatic.interpolateRdYlGn, scheme: chromatic.schemeRdYlGn },
  PuOr: { interpolate: chromatic.interpolatePuOr, scheme: chromatic.schemePuOr },
  BrBG: { interpolate: chromatic.interpolateBrBG, scheme: chromatic.schemeBrBG },
  PiYG: { interpolate: chromatic.interpolatePiYG, scheme: chromatic.schemePiYG },
  Spectral: { interpolate: chromatic.interpolateSpectral, scheme: chromatic.schemeSpectral },
}

/** The qualitative palette's colours, in order. */
export function qualitativeColours(palette: QualitativePalette): string[] {
  return QUALITATIVE[palette].map(toHex)
}

/** `n` colours of a ramp, low to high: ColorBrewer's own classes where it has them, else sampled evenly. */
export function rampColours(palette: RampPalette, n: number, reversed = false): string[] {
  const ramp = RAMPS[palette]
  const designed = n >= 3 ? ramp.scheme?.[n] : undefined
  const colours = designed
    ? designed.map(toHex)
    : Array.from({ length: n }, (_, i) => toHex(ramp.interpolate(n === 1 ? 0.5 : 0.1 + (0.8 * i) / (n - 1))))
  return reversed ? colours.reverse() : colours
}

/** A number from a property value: numbers, and text that is a finite number; null otherwise. */
export function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value)
    return Number.isFinite(n) ? n : null
  }
  return null
}

/** Fields of some features' properties, numeric when every present value reads as a number. */
export function fieldsOf(
  properties: Iterable<Record<string, unknown> | null | undefined>,
  sample = 2000,
): LayerField[] {
  const seen = new Map<string, boolean>()
  let count = 0
  for (const props of properties) {
    if (count++ >= sample) break
    for (const [name, value] of Object.entries(props ?? {})) {
      if (value === null || value === undefined || value === '') {
        if (!seen.has(name)) seen.set(name, true)
        continue
      }
      const numeric = numberOf(value) !== null && typeof value !== 'boolean'
      seen.set(name, (seen.get(name) ?? true) && numeric)
    }
  }
  return [...seen].map(([name, numeric]) => ({ name, numeric }))
}

/**
 * Class limits for numbers: `classes + 1` ascending breaks from the minimum to the maximum, fewer when the
 * data has fewer distinct values than classes (ties never make an empty class).
 */
export function classify(values: readonly number[], method: ClassificationMethod, classes: number): number[] {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b)
  if (sorted.length === 0) return []
  const min = sorted[0]!
  const max = sorted[sorted.length - 1]!
  if (min === max) return [min, max]
  // Quantiles and natural breaks cannot make more classes than there are distinct values.
  const distinct = new Set(sorted).size
  const k = Math.max(1, method === 'equal-interval' ? classes : Math.min(classes, distinct))
  if (method === 'equal-interval') return equalIntervalBreaks(sorted, k)
  if (method === 'quantile') {
    const breaks = [min, ...Array.from({ length: k - 1 }, (_, i) => quantileSorted(sorted, (i + 1) / k)), max]
    return [...new Set(breaks)]
  }
  // Each cluster's smallest value starts its class; a last cluster of the maximum alone is its own class.
  const clusters = ckmeans(sorted, k)
  const breaks = [...clusters.map((c) => c[0]!), max]
  const last = clusters[clusters.length - 1]!
  return last[0] === max && clusters.length > 1 ? breaks : [...new Set(breaks)]
}

/** The class of a value among breaks (0-based), or -1 outside them or for no number. */
export function classOf(value: number | null, breaks: readonly number[]): number {
  if (value === null || breaks.length < 2 || value < breaks[0]! || value > breaks[breaks.length - 1]!)
    return -1
  let lo = 0
  let hi = breaks.length - 2
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (value >= breaks[mid]!) lo = mid
    else hi = mid - 1
  }
  return lo
}

/** The most frequent values (up to the palette's length), ordered by value; the rest go to "other". */
export function topCategories(values: Iterable<unknown>, limit: number): string[] {
  const counts = new Map<string, number>()
  for (const value of values) {
    if (value === null || value === undefined) continue
    const key = String(value)
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, Math.min(limit, MAX_CATEGORIES))
    .map(([value]) => value)
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
}

const OTHER = '#9ca3af'
const STROKE = '#ffffff'

/** The symbol kinds that suit a geometry (heatmaps are for points). */
export function symbolKindsFor(geometry: GeometryFamily): SymbolKind[] {
  if (geometry === 'raster') return []
  return geometry === 'point'
    ? ['single', 'categorized', 'graduated', 'heatmap']
    : ['single', 'categorized', 'graduated']
}

/** A single-symbol style in a colour, sized for the geometry. */
export function singleStyle(colour: string, geometry: GeometryFamily): LayerStyle {
  return {
    symbol: {
      kind: 'single',
      fill: colour,
      stroke: geometry === 'line' ? colour : STROKE,
      strokeWidth: geometry === 'line' ? 2.5 : geometry === 'point' ? 0.75 : 1.5,
      pointSize: 3.5,
      fillOpacity: geometry === 'polygon' || geometry === 'mixed' ? 0.25 : 1,
    },
    labels: null,
  }
}

type Strokes = Pick<SingleSymbol, 'stroke' | 'strokeWidth' | 'pointSize' | 'fillOpacity'>

/** The outline and sizes a new style keeps from the one it replaces. */
function strokesOf(style: LayerStyle, geometry: GeometryFamily): Strokes {
  const s = style.symbol
  if (s.kind !== 'heatmap') {
    const { stroke, strokeWidth, pointSize, fillOpacity } = s
    return { stroke, strokeWidth, pointSize, fillOpacity }
  }
  const { stroke, strokeWidth, pointSize, fillOpacity } = singleStyle(STROKE, geometry).symbol as SingleSymbol
  return { stroke, strokeWidth, pointSize, fillOpacity }
}

/** A categorized style over the given values. */
export function categorizedStyle(
  from: LayerStyle,
  geometry: GeometryFamily,
  field: string,
  palette: QualitativePalette,
  values: Iterable<unknown>,
): LayerStyle {
  const colours = qualitativeColours(palette)
  const categories = topCategories(values, colours.length).map((value, i) => ({ value, colour: colours[i]! }))
  const symbol: CategorizedSymbol = {
    kind: 'categorized',
    field,
    palette,
    categories,
    other: OTHER,
    ...strokesOf(from, geometry),
  }
  return { symbol, labels: from.labels }
}

/** A graduated style: breaks from the values by the method, colours from the ramp. */
export function graduatedStyle(
  from: LayerStyle,
  geometry: GeometryFamily,
  options: {
    field: string
    method: ClassificationMethod
    classes: number
    palette: RampPalette
    reversed: boolean
  },
  values: Iterable<unknown>,
): LayerStyle {
  const numbers: number[] = []
  for (const v of values) {
    const n = numberOf(v)
    if (n !== null) numbers.push(n)
  }
  const classes = Math.min(MAX_CLASSES, Math.max(MIN_CLASSES, Math.round(options.classes)))
  let breaks = classify(numbers, options.method, classes)
  if (breaks.length < 2) breaks = [0, 0]
  const colours = rampColours(options.palette, breaks.length - 1, options.reversed)
  const symbol: GraduatedSymbol = {
    kind: 'graduated',
    ...options,
    classes,
    breaks,
    colours,
    other: OTHER,
    ...strokesOf(from, geometry),
  }
  return { symbol, labels: from.labels }
}

export function heatmapStyle(from: LayerStyle): LayerStyle {
  const symbol: HeatmapSymbol = { kind: 'heatmap', radius: 8, blur: 15, weightField: null, palette: 'YlOrRd' }
  return { symbol, labels: from.labels }
}

/** Breaks as a person reads them: grouped thousands, at most two decimals, fewer for big numbers. */
export function formatBreak(n: number): string {
  const digits = Math.abs(n) >= 100 ? 0 : Math.abs(n) >= 1 ? 1 : 2
  return n.toLocaleString('en-US', { maximumFractionDigits: digits })
}

function swatch(geometry: GeometryFamily, fill: string, s: Strokes): LegendItem['swatch'] {
  if (geometry === 'line') return { shape: 'line', stroke: fill, size: Math.max(1, s.strokeWidth) }
  if (geometry === 'point') return { shape: 'point', fill, stroke: s.stroke, size: s.pointSize }
  return { shape: 'polygon', fill, stroke: geometry === 'polygon' ? s.stroke : fill }
}

/** The legend a style draws: one entry per class or category (then "Other"), a ramp for heatmaps. */
export function legendOf(style: LayerStyle, geometry: GeometryFamily, title: string): LegendItem[] {
  const s = style.symbol
  switch (s.kind) {
    case 'single':
      return [{ label: title, swatch: swatch(geometry, s.fill, s) }]
    case 'categorized':
      return [
        ...s.categories.map((c) => ({
          label: c.value === '' ? '(empty)' : c.value,
          swatch: swatch(geometry, c.colour, s),
        })),
        { label: 'Other', swatch: swatch(geometry, s.other, s) },
      ]
    case 'graduated':
      return s.colours.map((colour, i) => ({
        label: `${formatBreak(s.breaks[i]!)} – ${formatBreak(s.breaks[i + 1]!)}`,
        swatch: swatch(geometry, colour, s),
      }))
    case 'heatmap':
      return [
        {
          label: `Density${s.weightField ? ` weighted by ${s.weightField}` : ''}: low to high`,
          swatch: { shape: 'ramp', colours: rampColours(s.palette, 5) },
        },
      ]
  }
}
