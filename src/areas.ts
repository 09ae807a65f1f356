/**
 * The app's areas: one line per area. Each area registers its panels, map layers, commands and actions
 * with the shell in its own `area.ts`; the activity bar lists them by their `order`.
 */
export { default as map } from './features/map/area'
export { default as routing } from './features/routing/area'
export { default as gis } from './features/gis/area'
export { default as places } from './features/places/area'
export { default as telematics } from './features/telematics/area'
export { default as vision } from './features/vision/area'
