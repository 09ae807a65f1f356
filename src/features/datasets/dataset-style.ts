import { Circle as CircleStyle, Fill, Stroke, Style } from 'ol/style'

/** Layer property marking a shown dataset's layer: drawing snaps to the features of such layers. */
export const SNAP_TARGET = 'geoAnalyst.snapTarget'

/** Distinct colours, one per shown dataset, in the order datasets are shown (colour-blind aware set). */
export const DATASET_COLOURS = [
  '#0072b2',
  '#d55e00',
  '#009e73',
  '#cc79a7',
  '#e69f00',
  '#56b4e9',
  '#7b3294',
  '#8c510a',
] as const

/** The family of a dataset's geometry type as the panel and legend speak of it. */
export type GeometryFamily = 'point' | 'line' | 'polygon' | 'mixed'

export function geometryFamily(geometryType: string | undefined): GeometryFamily {
  const type = (geometryType ?? '').toUpperCase()
  if (type.includes('POINT')) return 'point'
  if (type.includes('LINE')) return 'line'
  if (type.includes('POLYGON')) return 'polygon'
  return 'mixed'
}

function withAlpha(hex: string, alpha: number): string {
  const n = Number.parseInt(hex.slice(1), 16)
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`
}

/** Points as dots, lines as strokes, polygons as a translucent fill with an outline, in the dataset's colour. */
export function datasetStyle(colour: string, family: GeometryFamily): Style {
  const stroke = new Stroke({ color: colour, width: family === 'line' ? 2.5 : 1.5 })
  return new Style({
    stroke,
    fill: family === 'point' || family === 'line' ? undefined : new Fill({ color: withAlpha(colour, 0.18) }),
    image: new CircleStyle({
      radius: 2.75,
      fill: new Fill({ color: colour }),
      stroke: new Stroke({ color: 'rgba(255, 255, 255, 0.85)', width: 0.75 }),
    }),
  })
}
