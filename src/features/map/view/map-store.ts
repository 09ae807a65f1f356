import { defineStore } from 'pinia'
import { ref } from 'vue'
import { DEFAULT_PREFERENCES, type Preferences } from '@contract/settings'
import type { LonLat } from '../../../geo/coordinates'
import type { LonLatBox } from '../../../geo/extent'

export type BasemapPreference = Preferences['basemap']

/** A request to fit the view to a box; `id` grows so the same box can be asked for twice. */
export interface FitRequest {
  id: number
  box: LonLatBox
}

/** A request to centre the view on a point, optionally at a zoom level. */
export interface CenterRequest {
  id: number
  center: LonLat
  zoom: number | null
}

/** Serializable map state only: OpenLayers objects live in MapView and the layer components. */
export const useMapStore = defineStore('map', () => {
  const basemap = ref<BasemapPreference>({ ...DEFAULT_PREFERENCES.basemap })
  const center = ref<LonLat | null>(null)
  const zoom = ref<number | null>(null)
  const cursor = ref<LonLat | null>(null)
  /** What the map shows now, as a lon/lat box (may run past ±180°); null until it is drawn. */
  const viewBox = ref<LonLatBox | null>(null)
  const fitRequest = ref<FitRequest | null>(null)
  const centerRequest = ref<CenterRequest | null>(null)

  function setBasemap(next: BasemapPreference): void {
    if (next.kind !== basemap.value.kind || next.xyzUrl !== basemap.value.xyzUrl) basemap.value = { ...next }
  }

  function setView(nextCenter: LonLat, nextZoom: number): void {
    center.value = nextCenter
    zoom.value = nextZoom
  }

  function setViewBox(box: LonLatBox | null): void {
    viewBox.value = box
  }

  function setCursor(next: LonLat | null): void {
    cursor.value = next
  }

  function fitTo(box: LonLatBox): void {
    fitRequest.value = { id: (fitRequest.value?.id ?? 0) + 1, box }
  }

  function centerOn(point: LonLat, atZoom?: number): void {
    centerRequest.value = { id: (centerRequest.value?.id ?? 0) + 1, center: point, zoom: atZoom ?? null }
  }

  return {
    basemap,
    center,
    zoom,
    cursor,
    viewBox,
    fitRequest,
    centerRequest,
    setBasemap,
    setView,
    setViewBox,
    setCursor,
    fitTo,
    centerOn,
  }
})
