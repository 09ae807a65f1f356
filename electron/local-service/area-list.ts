/**
 * The areas the local service implements, one line per area: `export { <area>Area as <area> } from
 * './<area>/routes'`. `npm run new-area -- NAME` adds the line; `areas.ts` puts them in order.
 */
export { placesArea as places } from './places/routes'
export { routingArea as routing } from './routing/routes'
export { gisArea as gis } from './gis/routes'
export { telematicsArea as telematics } from './telematics/routes'
export { visionArea as vision } from './vision/routes'
