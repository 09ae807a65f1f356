/**
 * Every group's part of the client (its methods over `execute()` and the calls `geo-analyst call` runs), one
 * line per area: `export { <area>ClientArea as <area> } from './<area>'`. `create-client.ts` and `calls.ts`
 * are derived from it.
 */
export { placesClientArea as places } from './places'
export { routingClientArea as routing } from './routing'
export { gisClientArea as gis } from './gis'
export { telematicsClientArea as telematics } from './telematics'
export { visionClientArea as vision } from './vision'
