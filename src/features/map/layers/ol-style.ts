import type { FeatureLike } from 'ol/Feature'
import { Circle as CircleStyle, Fill, Stroke, Style, Text } from 'ol/style'
import type { StyleFunction } from 'ol/style/Style'
import type { LayerLabels, LayerStyle, LayerSymbol } from '@contract/index'
import { withAlpha } from '../../../kit/palette'
import type { GeometryFamily } from './layer-model'
import { classOf, numberOf, rampColours } from './symbology'

/**
 * A layer style as OpenLayers draws it. One `Style` object per class or category, made once per style
 * change and shared by every feature in it (a 200k-point layer costs a lookup per feature, not an object).
 */

function symbolStyle(
  fill: string,
  s: Exclude<LayerSymbol, { kind: 'heatmap' }>,
  geometry: GeometryFamily,
): Style {
  const stroke =
    s.strokeWidth > 0
      ? new Stroke({ color: geometry === 'line' ? fill : s.stroke, width: s.strokeWidth })
      : undefined
  return new Style({
    stroke: geometry === 'line' ? new Stroke({ color: fill, width: Math.max(0.5, s.strokeWidth) }) : stroke,
    fill: new Fill({ color: withAlpha(fill, s.fillOpacity) }),
    image: new CircleStyle({
      radius: s.pointSize,
      fill: new Fill({ color: fill }),
      ...(s.strokeWidth > 0
        ? { stroke: new Stroke({ color: s.stroke, width: Math.min(s.strokeWidth, 2) }) }
        : {}),
      declutterMode: 'none',
    }),
  })
}

/** The style function of a (non-heatmap) symbol. */
export function olStyleFunction(style: LayerStyle, geometry: GeometryFamily): StyleFunction {
  const s = style.symbol
  switch (s.kind) {
    case 'single': {
      const one = symbolStyle(s.fill, s, geometry)
      return () => one
    }
    case 'categorized': {
      const byValue = new Map(s.categories.map((c) => [c.value, symbolStyle(c.colour, s, geometry)]))
      const other = symbolStyle(s.other, s, geometry)
      const field = s.field
      return (feature: FeatureLike) => {
        const value = feature.get(field) as unknown
        return (value === null || value === undefined ? undefined : byValue.get(String(value))) ?? other
      }
    }
    case 'graduated': {
      const classes = s.colours.map((c) => symbolStyle(c, s, geometry))
      const other = symbolStyle(s.other, s, geometry)
      const { field, breaks } = s
      return (feature: FeatureLike) => classes[classOf(numberOf(feature.get(field)), breaks)] ?? other
    }
    case 'heatmap':
      // Drawn by the heatmap layer; the vector layer is hidden meanwhile.
      return () => undefined
  }
}

/** Labels by a field: one text per feature, left out where it would overlap another (decluttering). */
export function olLabelFunction(labels: LayerLabels, geometry: GeometryFamily): StyleFunction {
  const cache = new WeakMap<object, Style>()
  const font = `600 ${labels.size}px system-ui, sans-serif`
  const fill = new Fill({ color: labels.colour })
  const stroke = new Stroke({ color: labels.halo, width: Math.max(2, labels.size / 4) })
  return (feature: FeatureLike) => {
    const value = feature.get(labels.field) as unknown
    if (value === null || value === undefined || value === '') return undefined
    let style = cache.get(feature)
    if (!style) {
      style = new Style({
        text: new Text({
          text: String(value).slice(0, 80),
          font,
          fill,
          stroke,
          ...(geometry === 'point' ? { offsetY: -labels.size, textBaseline: 'bottom' as const } : {}),
          ...(geometry === 'line' ? { placement: 'line' as const } : {}),
          overflow: geometry === 'polygon',
        }),
      })
      cache.set(feature, style)
    }
    return style
  }
}

/** The heatmap's gradient (transparent end first, as OpenLayers wants it). */
export function heatmapGradient(style: LayerStyle): string[] {
  return style.symbol.kind === 'heatmap' ? rampColours(style.symbol.palette, 7) : []
}

/** A point's weight 0..1: its field's value over the field's range, or 1 without a field. */
export function heatmapWeight(
  field: string | null,
  values: readonly unknown[],
): (feature: FeatureLike) => number {
  if (!field) return () => 1
  let min = Infinity
  let max = -Infinity
  for (const v of values) {
    const n = numberOf(v)
    if (n === null) continue
    if (n < min) min = n
    if (n > max) max = n
  }
  const span = max > min ? max - min : 1
  return (feature) => {
    const n = numberOf(feature.get(field))
    return n === null ? 0 : Math.min(1, Math.max(0, (n - min) / span))
  }
}
