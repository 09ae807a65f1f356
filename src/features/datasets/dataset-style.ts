import { Circle as CircleStyle, Fill, Stroke, Style } from 'ol/style'
import { MAP_PALETTE, withAlpha } from '../../kit/palette'

/** Layer property marking a shown dataset's layer: drawing snaps to the features of such layers. */
export const SNAP_TARGET = 'geoAnalyst.snapTarget'

/** The family of a dataset's geometry type as the panel and legend speak of it. */
export type GeometryFamily = 'point' | 'line' | 'polygon' | 'mixed'

export function geometryFamily(geometryType: string | undefined): GeometryFamily {
  const type = (geometryType ?? '').toUpperCase()
  if (type.includes('POINT')) return 'point'
  if (type.includes('LINE')) return 'line'
  if (type.includes('POLYGON')) return 'polygon'
  return 'mixed'
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
      stroke: new Stroke({ color: MAP_PALETTE.softHalo, width: 0.75 }),
    }),
  })
}
