import { waitFor } from '@testing-library/vue'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { BASE_URL_KEYS } from '@contract/index'
import * as bridge from '../../../../src/bridge'
import type { LonLatBox } from '../../../../src/geo/extent'
import { useMapStore } from '../../../../src/features/map/view/map-store'
import routingArea from '../../../../src/features/routing/area'
import { useSettingsStore } from '../../../../src/features/settings/settings-store'
import { installAreaFollow } from '../../../../src/features/shell/follow-area'
import { useShellStore } from '../../../../src/features/shell/shell-store'
import fleetArea from '../../../../src/features/telematics/area'
import { useFleetStore } from '../../../../src/features/telematics/fleet-store'
import type { FakeGeo } from '../../support/fake-geo'
import { createTestApp } from '../../support/render'

vi.mock('../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../support/fake-geo')
  const fake = createFakeGeo()
  return { geo: fake.geo, geoEvents: fake.geoEvents, geoFiles: fake.geoFiles, fake }
})

const fake = (bridge as unknown as { fake: FakeGeo }).fake
const INDIA: LonLatBox = [68, 6, 98, 36]
/** The bundled sample's box, as the local service lists it. */
const NETWORK_BOX: LonLatBox = [11.86, 57.648, 12.094, 57.762]

let stop: () => void = () => {}

/** The routing and fleet areas, the map showing India, the map following the areas. */
async function start() {
  const app = createTestApp([routingArea, fleetArea])
  await useSettingsStore().load()
  useMapStore().setViewBox(INDIA)
  stop = installAreaFollow(app.shell)
  return app
}

const fitBox = () => useMapStore().fitRequest?.box ?? null
const fits = () => useMapStore().fitRequest?.id ?? 0
/** Let the areas answer (networks listed, the fleet's first poll). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50))

describe('the map follows the area', () => {
  beforeEach(() => {
    fake.reset()
    localStorage.clear()
  })
  afterEach(() => {
    stop()
    useFleetStore().stop()
  })

  it('brings the map to the road network the first time Routing opens, when none of it is in view', async () => {
    await start()
    useShellStore().chooseArea('routing')
    await waitFor(() => expect(fitBox()).toEqual(NETWORK_BOX))
    // Once: the analyst moves on and comes back; where the map is is theirs now.
    const after = fits()
    useShellStore().chooseArea('telematics')
    await waitFor(() => expect(fits()).toBe(after + 1))
    useShellStore().chooseArea('routing')
    await settle()
    expect(fits()).toBe(after + 1)
  })

  it('opens the fleet on its vehicles, and leaves a map that shows the network alone', async () => {
    await start()
    useMapStore().setViewBox([11.9, 57.6, 12.0, 57.7])
    useShellStore().chooseArea('routing')
    await settle()
    expect(fits()).toBe(0)
    useMapStore().setViewBox(INDIA)
    useShellStore().chooseArea('telematics')
    await waitFor(() => expect(fitBox()).not.toBeNull())
    const [w, s, e, n] = fitBox()!
    for (const d of useFleetStore().list) {
      expect(d.lon).toBeGreaterThanOrEqual(w - 0.01)
      expect(d.lon).toBeLessThanOrEqual(e + 0.01)
      expect(d.lat).toBeGreaterThanOrEqual(s)
      expect(d.lat).toBeLessThanOrEqual(n)
    }
  })

  it('leaves the map where it is on a cloud profile, whose service routes its own region', async () => {
    fake.state.view.profiles.push({
      name: 'Cloud',
      builtIn: false,
      urls: Object.fromEntries(BASE_URL_KEYS.map((k) => [k, 'https://cloud.example.test'])) as never,
    })
    fake.state.view.activeProfile = 'Cloud'
    await start()
    useShellStore().chooseArea('routing')
    await settle()
    expect(fake.geo['routing.networks']).toHaveBeenCalled()
    expect(fits()).toBe(0)
  })
})
