import { lazyMapPart, lazyPanel } from '../shell/lazy'
import { defineArea } from '../shell/shell'

declare module '../shell/shell' {
  interface ShellActions {
    /** Use these points as the matrix's positions (from a search result, a point dataset, drawn points). */
    'routing.usePositions': { points: Array<[number, number]> }
  }
}

/**
 * Routing (spec §4.3–4.4): a distance matrix between positions placed on the map, the "when to leave"
 * curve of the predictive matrix, and the road networks the local service routes on.
 */
export default defineArea({
  id: 'routing',
  title: 'Routing',
  order: 20,
  // A route between two points.
  icon: 'M5 19a2 2 0 1 0 0-.01 M19 5a2 2 0 1 0 0-.01 M5 17 C5 10 19 14 19 7',
  sidePanels: [
    {
      id: 'routing.matrix',
      title: 'Distance matrix',
      component: lazyPanel(() => import('./MatrixPanel.vue')),
    },
    {
      id: 'routing.predictive',
      title: 'When to leave',
      component: lazyPanel(() => import('./PredictivePanel.vue')),
    },
    {
      id: 'routing.networks',
      title: 'Road networks',
      component: lazyPanel(() => import('./RoadNetworksPanel.vue')),
    },
  ],
  bottomPanels: [
    // After the analyst's loop's Results and Run history, which a first start shows.
    {
      id: 'routing.table',
      title: 'Matrix',
      order: 10,
      component: lazyPanel(() => import('./MatrixTable.vue')),
    },
  ],
  mapLayers: [
    { id: 'routing.networks', component: lazyMapPart(() => import('./NetworksLayer.vue')) },
    { id: 'routing.positions', component: lazyMapPart(() => import('./PositionsLayer.vue')) },
  ],
  // On the Local profile the matrix routes on the workspace's road networks (the bundled sample is in
  // Gothenburg): opening the area the first time brings the map to them, imported ones first.
  dataExtent: async () => {
    const { useRoutingStore } = await import('./routing-store')
    const store = useRoutingStore()
    if (!store.networksLoaded) await store.refreshNetworks()
    if (!store.checksCoverage) return []
    return [...store.networks].sort((a, b) => Number(a.bundled) - Number(b.bundled)).map((n) => n.bbox)
  },
  actions: {
    'routing.usePositions': async ({ points }) => {
      const { useRoutingStore } = await import('./routing-store')
      useRoutingStore().setPositions(points)
    },
  },
  setup(shell) {
    // A finished matrix shows its table.
    let stop: (() => void) | null = null
    let stopped = false
    void import('./routing-store').then(({ useRoutingStore }) => {
      if (stopped) return
      const store = useRoutingStore()
      stop = store.$onAction(({ name, after }) => {
        if (name === 'run')
          after(() => {
            if (store.result) void shell.run('panel.show', { id: 'routing.table', focus: false })
          })
      })
    })
    return () => {
      stopped = true
      stop?.()
    }
  },
})
