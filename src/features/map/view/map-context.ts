import { inject, type InjectionKey } from 'vue'
import type OlMap from 'ol/Map'

/** The one OpenLayers map, provided by MapView to its layer and control components. */
export const mapKey: InjectionKey<OlMap> = Symbol('geo-analyst.map')

export function useOlMap(): OlMap {
  const map = inject(mapKey)
  if (!map) throw new Error('useOlMap() must be used inside <MapView>')
  return map
}
