import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { GeoError } from '@contract/index'
import type { StandardizedAddress } from '@contract/places/standardize'
import { geo } from '../../bridge'
import type { Shell } from '../shell/shell'
import { zoomFor } from './place-types'
import { usePlacesStore } from './places-store'

/** The place an address was matched to (when the service found one). */
interface Match {
  level: string
  placeName: string
  latitude: number
  longitude: number
  eLoc: string
}

/**
 * The address panel's state (§4.1): the address typed, its standardized parts and the place it was matched
 * to, kept here so the panel and the `places.standardize` action (e.g. the first run's "Start here") share it.
 */
export const useAddressStore = defineStore('places-address', () => {
  const places = usePlacesStore()
  const address = ref('')
  const bias = ref('1.5')
  const busy = ref(false)
  const error = ref<GeoError | null>(null)
  const result = ref<StandardizedAddress | null>(null)
  const notFound = ref(false)

  const addressError = computed(() =>
    address.value.length > 1000 ? 'An address has at most 1,000 characters' : null,
  )
  const biasError = computed(() => {
    const n = Number(bias.value)
    return bias.value.trim() === '' || (Number.isFinite(n) && n > 0)
      ? null
      : 'A positive number: 1 neutral, above 1 urban'
  })
  const canRun = computed(
    () => !!address.value.trim() && !addressError.value && !biasError.value && !busy.value,
  )
  const match = computed(() => (result.value as { match?: Match } | null)?.match ?? null)

  /** Standardize the address as typed; shows the matched place on the map. Answers the error, or null. */
  async function run(shell: Shell): Promise<GeoError | null> {
    if (!canRun.value) return null
    busy.value = true
    const b = Number(bias.value)
    const r = await geo['places.standardize']({
      address: address.value.trim(),
      ...(bias.value.trim() && b !== 1.5 ? { bias: b } : {}),
    })
    busy.value = false
    if (!r.ok) {
      error.value = r.error
      result.value = null
      return r.error
    }
    error.value = null
    notFound.value = !r.value.found
    result.value = r.value.address ?? null
    if (match.value) await showOnMap(shell)
    return null
  }

  async function showOnMap(shell: Shell): Promise<void> {
    const m = match.value
    if (!m) return
    places.choose({
      name: m.placeName,
      address: address.value.trim(),
      type: m.level.toUpperCase(),
      eLoc: m.eLoc,
      lon: m.longitude,
      lat: m.latitude,
    })
    await shell.run('map.flyTo', {
      point: [m.longitude, m.latitude],
      zoom: zoomFor(m.level === 'city' ? 'CITY' : ''),
    })
  }

  return {
    address,
    bias,
    busy,
    error,
    result,
    notFound,
    addressError,
    biasError,
    canRun,
    match,
    run,
    showOnMap,
  }
})
