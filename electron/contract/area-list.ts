/**
 * Every area's contract (`ContractArea`: renderer operations, interface operations, events), one line per
 * area: `export { <area>Contract as <area> } from './<area>/operations'`. `npm run new-area -- NAME` adds the
 * line. Nothing here imports the tables derived from this list (`operations.ts`, `events.ts`).
 */
export { appContract as app } from './app/operations'
export { mapContract as map } from './map/operations'
export { placesContract as places } from './places/operations'
export { routingContract as routing } from './routing/operations'
export { telematicsContract as telematics } from './telematics/operations'
export { gisContract as gis } from './gis/operations'
export { visionContract as vision } from './vision/operations'
