/** Panel ids of the spatial-analytics area, for `panel.show`. */
export const GIS_PANELS = {
  datasets: 'gis.datasets',
  join: 'gis.join',
  results: 'gis.results',
  history: 'gis.history',
} as const
