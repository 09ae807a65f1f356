import { screen } from '@testing-library/vue'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import AddressPanel from '../../../../src/features/places/AddressPanel.vue'
import GeocodePanel from '../../../../src/features/places/GeocodePanel.vue'
import MyPlacesPanel from '../../../../src/features/places/MyPlacesPanel.vue'
import placesArea from '../../../../src/features/places/area'
import RunHistory from '../../../../src/features/gis/history/RunHistory.vue'
import * as bridge from '../../../../src/bridge'
import type { FakeGeo } from '../../support/fake-geo'
import { createTestApp, GIS_AREA, renderInApp } from '../../support/render'

vi.mock('../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../support/fake-geo')
  const fake = createFakeGeo()
  return { geo: fake.geo, geoEvents: fake.geoEvents, geoFiles: fake.geoFiles, fake }
})
const fake = (bridge as unknown as { fake: FakeGeo }).fake

describe('the Places panel’s tools', () => {
  beforeEach(() => fake.reset())

  it('each has a heading like every other panel’s (level 2, the panel-title look), naming its form', () => {
    // Another area's panel, for the level and look to match.
    renderInApp(RunHistory)
    const other = screen.getByRole('heading', { name: 'Run history' })
    const app = createTestApp([GIS_AREA, placesArea])
    for (const [panel, title, role] of [
      [AddressPanel, 'Standardize an address', 'form'],
      [GeocodePanel, 'Batch geocoding', 'form'],
      [MyPlacesPanel, 'My places', 'region'],
    ] as const) {
      renderInApp(panel, { app })
      const heading = screen.getByRole('heading', { name: title })
      expect(heading.tagName).toBe(other.tagName)
      expect(heading.className).toBe(other.className)
      // The tool is named by its heading.
      expect(screen.getByRole(role, { name: title }).contains(heading)).toBe(true)
    }
  })
})
