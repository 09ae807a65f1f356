/** Panel ids of the map's own entry (layers, attribute table), for `panel.show`. */
export const LAYERS_PANELS = {
  layers: 'map.layers',
  table: 'map.table',
} as const
