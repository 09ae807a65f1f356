/**
 * The map's colours. OpenLayers draws on a canvas, where CSS variables do not reach, so the canvas
 * colours live here, named by role, next to the CSS tokens (`tokens.css`) that colour everything else.
 */

/** Distinct colours, one per shown dataset, in the order datasets are shown (colour-blind aware set). */
export const DATASET_COLOURS = [
  '#0072b2',
  '#d55e00',
  '#009e73',
  '#cc79a7',
  '#e69f00',
  '#56b4e9',
  '#7b3294',
  '#8c510a',
] as const

export const MAP_PALETTE = {
  /** Join results drawn on the map, and the selected row's feature. */
  results: '#c026d3',
  highlight: '#f59e0b',
  /** Drawn shapes: normal, selected, and flagged (e.g. self-intersecting). */
  drawing: '#1d4ed8',
  drawingSelected: '#f59e0b',
  drawingProblem: '#dc2626',
  /** Labels on the map and the halo that keeps them readable over any fill. */
  label: '#111827',
  halo: 'rgba(255, 255, 255, 0.95)',
  /** Light outlines around points, and the basemap labels' softer halo. */
  pointOutline: '#ffffff',
  softHalo: 'rgba(255, 255, 255, 0.85)',
  /** The offline basemap. */
  sea: '#b5d6ea',
  state: '#f3e6bf',
  stateBorder: '#8a7650',
  country: '#e2e0da',
  countryBorder: '#a29d92',
  placeLabel: '#3d3322',
  /** The offline basemap in the dark theme: the same parts, dark fills, light labels on a dark halo. */
  darkSea: '#0c1a2b',
  darkState: '#27303d',
  darkStateBorder: '#7b879a',
  darkCountry: '#1a1f27',
  darkCountryBorder: '#4d5667',
  darkPlaceLabel: '#e2e8f0',
  darkHalo: 'rgba(11, 18, 32, 0.85)',
  /** Routing: numbered positions, where they were placed on the road, and lines from fast to slow. */
  routePosition: '#1d4ed8',
  routeSnapped: '#111827',
  routeFast: '#059669',
  routeSlow: '#b91c1c',
} as const

/** `#rrggbb` (or `#rgb`) as 0–255 components. */
export function rgbOf(hex: string): [number, number, number] {
  const h = hex.replace('#', '')
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h.slice(0, 6)
  const n = Number.parseInt(full, 16)
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255]
}

/** `#rrggbb` with an alpha, as OpenLayers' fills want it. */
export function withAlpha(hex: string, alpha: number): string {
  const [r, g, b] = rgbOf(hex)
  return `rgba(${r}, ${g}, ${b}, ${alpha})`
}
