import { shallowRef } from 'vue'
import type { LonLat } from '../../geo/coordinates'
import { lazyMapPart, lazyPanel } from '../shell/lazy'
import { defineArea } from '../shell/shell'
import { GIS_PANELS } from './panels'

declare module '../shell/shell' {
  interface ShellActions {
    /** Show a local dataset on the map, by name. */
    'gis.showDataset': { name: string }
    /** Draw a circle and join a dataset with it (Intersects); resolves when the rows are in Results. */
    'gis.joinInCircle': { dataset: string; center: LonLat; radiusMetres: number }
  }
}

/** The area's stores and wiring load after the map has painted, like its panels. */
const wiring = shallowRef<typeof import('./wiring') | null>(null)

/**
 * Spatial analytics (spec §4.5–4.6): datasets, drawing, the join composer, results and run history.
 * Panels and map parts load after the map has painted (each in its own chunk).
 */
export default defineArea({
  id: 'gis',
  title: 'Spatial analytics',
  order: 40,
  // Two overlapping shapes: a join.
  icon: 'M3 5h10v10H3z M9 9h12v10H9z',
  sidePanels: [
    {
      id: GIS_PANELS.datasets,
      title: 'Datasets',
      component: lazyPanel(() => import('./datasets/DatasetsPanel.vue')),
    },
    {
      id: GIS_PANELS.join,
      title: 'Spatial join',
      component: lazyPanel(() => import('./composer/JoinComposer.vue')),
    },
  ],
  bottomPanels: [
    {
      id: GIS_PANELS.results,
      title: 'Results',
      component: lazyPanel(() => import('./results/ResultsPanel.vue')),
    },
    {
      id: GIS_PANELS.history,
      title: 'Run history',
      component: lazyPanel(() => import('./history/RunHistory.vue')),
    },
  ],
  mapLayers: [
    { id: 'gis.datasets', component: lazyMapPart(() => import('./datasets/DatasetLayers.vue')) },
    { id: 'gis.results', component: lazyMapPart(() => import('./results/ResultsLayer.vue')) },
    { id: 'gis.drawings', component: lazyMapPart(() => import('./draw/DrawingLayer.vue')) },
  ],
  mapControls: [{ id: 'gis.draw', component: lazyMapPart(() => import('./draw/DrawToolbar.vue')) }],
  commands: [
    {
      id: 'gis.zoomToResults',
      label: 'Zoom to results',
      description: 'Fit the map to the join results the table shows',
      run: (shell) => wiring.value?.zoomToResults(shell),
      enabled: () => wiring.value?.resultsHaveExtent() ?? false,
    },
  ],
  actions: {
    'gis.showDataset': async ({ name }) => (await import('./first-run')).showDataset(name),
    'gis.joinInCircle': async (payload) => (await import('./first-run')).joinInCircle(payload),
  },
  openLayers: async (layers) => (await import('./wiring')).openGisLayers(layers),
  project: {
    save: async () => (await import('./wiring')).gisProjectPart(),
    open: async (part) => (await import('./wiring')).openGisProjectPart(part),
  },
  setup(shell) {
    let stop: (() => void) | null = null
    let stopped = false
    void import('./wiring').then((module) => {
      if (stopped) return
      wiring.value = module
      stop = module.wireGis(shell)
    })
    return () => {
      stopped = true
      stop?.()
    }
  },
})
