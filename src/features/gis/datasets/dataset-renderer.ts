/**
 * How a shown dataset is drawn: as an image layer (default: the rendered image is moved while panning,
 * redrawn when the view settles) or as a vector layer (every feature drawn on every frame). A diagnostic
 * setting for `npm run bench:map` to compare the two (ADR 014); nothing in the app sets it.
 */
export const DATASET_RENDERER_KEY = 'geo-analyst.datasetRenderer'

export function datasetRenderer(): 'image' | 'vector' {
  try {
    return globalThis.localStorage?.getItem(DATASET_RENDERER_KEY) === 'vector' ? 'vector' : 'image'
  } catch {
    return 'image'
  }
}
