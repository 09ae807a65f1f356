/**
 * Every area's handler registration, one line per area: `export { register<Area>Handlers as <area> } from
 * './<area>/handlers'`. `npm run new-area -- NAME` adds the line; `areas.ts` puts them in order.
 */
export { registerAppHandlers as app } from './app/handlers'
export { registerMapHandlers as map } from './map/handlers'
export { registerPlacesHandlers as places } from './places/handlers'
export { registerRoutingHandlers as routing } from './routing/handlers'
export { registerTelematicsHandlers as telematics } from './telematics/handlers'
export { registerGisHandlers as gis } from './gis/handlers'
export { registerVisionHandlers as vision } from './vision/handlers'
