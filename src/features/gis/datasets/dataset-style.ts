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
