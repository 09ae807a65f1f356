import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { GeoError } from '@contract/index'
import type { SavedPlace } from '@contract/places/my-places'
import { geo } from '../../bridge'

/** A place chosen on the map (from a suggestion, an address or My places). */
export interface ChosenPlace {
  name: string
  address: string
  type: string
  eLoc: string
  lon: number
  lat: number
}

/** Places: the chosen place (pinned on the map) and My places. Serializable state only. */
export const usePlacesStore = defineStore('places', () => {
  const chosen = ref<ChosenPlace | null>(null)
  const saved = ref<SavedPlace[]>([])
  const savedLoaded = ref(false)
  const savedError = ref<GeoError | null>(null)
  /** Set while the next map click saves a point to My places under this name. */
  const picking = ref<string | null>(null)

  function choose(place: ChosenPlace | null): void {
    chosen.value = place
  }

  async function loadSaved(): Promise<void> {
    const r = await geo['places.listSaved']({})
    savedLoaded.value = true
    if (r.ok) {
      saved.value = r.value.places
      savedError.value = null
    } else savedError.value = r.error
  }

  async function save(place: {
    placeName: string
    latitude: number
    longitude: number
    placeAddress?: string
    type?: string
  }): Promise<SavedPlace | null> {
    const r = await geo['places.savePlace'](place)
    if (!r.ok) {
      savedError.value = r.error
      return null
    }
    savedError.value = null
    saved.value = [r.value, ...saved.value]
    return r.value
  }

  async function remove(eLoc: string): Promise<void> {
    const r = await geo['places.deleteSaved']({ eLoc })
    if (!r.ok) savedError.value = r.error
    else saved.value = saved.value.filter((p) => p.eLoc !== eLoc)
  }

  return { chosen, saved, savedLoaded, savedError, picking, choose, loadSaved, save, remove }
})
