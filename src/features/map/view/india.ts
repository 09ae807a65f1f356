import type { FeatureCollection } from 'geojson'
import basemapData from '../../../../resources/basemap/india-admin1.json'
import { boxOfKind, type LonLatBox } from '../../../geo/extent'

/** The bundled offline basemap (Natural Earth admin-1, derived by scripts/derive-basemap.mjs). */
export const indiaBasemap = basemapData as unknown as FeatureCollection

/** India's states and union territories, as a lon/lat box. */
export const INDIA_BOX: LonLatBox = boxOfKind(indiaBasemap, 'state')
