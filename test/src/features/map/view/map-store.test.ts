import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import { useMapStore } from '../../../../../src/features/map/view/map-store'

describe('useMapStore', () => {
  beforeEach(() => setActivePinia(createPinia()))

  it('starts on the offline basemap with OpenStreetMap as the online default', () => {
    const map = useMapStore()
    expect(map.basemap).toEqual({ kind: 'offline', xyzUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png' })
  })

  it('asks for the same fit twice as two requests', () => {
    const map = useMapStore()
    map.fitTo([68, 6, 98, 37])
    const first = map.fitRequest
    map.fitTo([68, 6, 98, 37])
    expect(map.fitRequest?.id).toBe((first?.id ?? 0) + 1)
    expect(map.fitRequest?.box).toEqual([68, 6, 98, 37])
  })

  it('holds only serializable state', () => {
    const map = useMapStore()
    map.setView([78.9, 22.5], 5)
    map.setCursor([77.2, 28.6])
    map.fitTo([68, 6, 98, 37])
    expect(JSON.parse(JSON.stringify(map.$state))).toEqual(map.$state)
  })
})
