import { lazyMapPart, lazyPanel } from '../shell/lazy'
import { defineArea } from '../shell/shell'

declare module '../shell/shell' {
  interface ShellActions {
    /** Standardize an address in the Address panel (shown, with the parts and the place on the map). */
    'places.standardize': { address: string }
  }
}

/** Panel ids of the places area, for `panel.show`. */
export const PLACES_PANELS = {
  address: 'places.address',
  geocode: 'places.geocode',
  saved: 'places.saved',
} as const

/**
 * Places (spec §4.1–4.2): the search box over the map (autosuggest), the address panel (standardization),
 * batch geocoding of a CSV or a dataset column, and My places. Cloud and local alike.
 */
export default defineArea({
  id: 'places',
  title: 'Places',
  order: 10,
  // A map pin.
  icon: 'M12 2a7 7 0 0 0-7 7c0 5 7 13 7 13s7-8 7-13a7 7 0 0 0-7-7z M12 6.5a2.5 2.5 0 1 1 0 5a2.5 2.5 0 0 1 0-5z',
  sidePanels: [
    { id: PLACES_PANELS.address, title: 'Address', component: lazyPanel(() => import('./AddressPanel.vue')) },
    {
      id: PLACES_PANELS.geocode,
      title: 'Batch geocoding',
      component: lazyPanel(() => import('./GeocodePanel.vue')),
    },
    {
      id: PLACES_PANELS.saved,
      title: 'My places',
      component: lazyPanel(() => import('./MyPlacesPanel.vue')),
    },
  ],
  mapLayers: [{ id: 'places.pins', component: lazyMapPart(() => import('./PlacePins.vue')) }],
  mapControls: [{ id: 'places.search', component: lazyMapPart(() => import('./SearchBox.vue')) }],
  setup(shell) {
    // Registered here, where the handler has the shell (to show the panel and fly to the place).
    return shell.handle('places.standardize', async ({ address }) => {
      const { useAddressStore } = await import('./address-store')
      const store = useAddressStore()
      store.address = address
      await shell.run('panel.show', { id: PLACES_PANELS.address })
      if (!store.canRun) throw new Error('The Address panel is busy standardizing: try again in a moment.')
      const error = await store.run(shell)
      if (error) throw new Error(`The address was not standardized: ${error.message}`)
      if (store.notFound) throw new Error('Nothing in the sample address was recognised.')
    })
  },
})
