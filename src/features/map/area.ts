import { ImageDownIcon } from '@lucide/vue'
import { lazyMapPart, lazyPanel } from '../shell/lazy'
import { defineArea } from '../shell/shell'
import { useLayersStore } from './layers/layers-store'
import { LAYERS_PANELS } from './panels'

/**
 * The map's own entry: the layer list every area's layers join (with symbology, the legend, the
 * attribute table), projects and "Export map". First in the activity bar.
 */
export default defineArea({
  id: 'map',
  title: 'Layers',
  order: 0,
  // Lucide "layers": three stacked sheets.
  icon: 'M12.83 2.18a2 2 0 0 0-1.66 0L2.6 6.08a1 1 0 0 0 0 1.83l8.58 3.91a2 2 0 0 0 1.66 0l8.58-3.9a1 1 0 0 0 0-1.83z M2 12a1 1 0 0 0 .58.91l8.6 3.91a2 2 0 0 0 1.65 0l8.58-3.9A1 1 0 0 0 22 12 M2 17a1 1 0 0 0 .58.91l8.6 3.91a2 2 0 0 0 1.65 0l8.58-3.9A1 1 0 0 0 22 17',
  sidePanels: [
    {
      id: LAYERS_PANELS.layers,
      title: 'Layers',
      component: lazyPanel(() => import('./layers/LayersPanel.vue')),
    },
  ],
  bottomPanels: [
    {
      id: LAYERS_PANELS.table,
      title: 'Attribute table',
      order: 50,
      component: lazyPanel(() => import('./layers/AttributeTable.vue')),
      // Once a layer's table is open, it stays at hand in every area (while that layer is on the map).
      everywhere: () => {
        const layers = useLayersStore()
        return layers.attributeTable !== null && layers.entries.some((e) => e.id === layers.attributeTable)
      },
    },
  ],
  mapControls: [
    { id: 'map.legend', component: lazyMapPart(() => import('./layers/MapLegend.vue')) },
    { id: 'map.export', component: lazyMapPart(() => import('./export/ExportMapControl.vue')) },
  ],
  commands: [
    {
      id: 'map.export',
      label: 'Export map',
      description: 'Export the map as PNG or PDF, with title, legend, scale bar and north arrow',
      icon: ImageDownIcon,
      run: async () => {
        const { useExportStore } = await import('./export/export-store')
        useExportStore().open = true
      },
    },
  ],
  setup(shell) {
    let stopped = false
    // The layers kept from the last run come back (their areas are asked), or the last project reopens.
    void import('./project/project-store').then(({ useProjectStore }) => {
      if (!stopped) void useProjectStore().startup(shell)
    })
    return () => {
      stopped = true
    }
  },
})
