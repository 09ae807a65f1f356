/**
 * Every area's commands (`geo-analyst <area> …`), one line per area: `export { <area>Commands as <area> } from
 * './<area>'`. `npm run new-area -- NAME` adds the line; `index.ts` puts them after the app's own commands.
 */
export { mapCommands as map } from './map'
export { placesCommands as places } from './places'
export { routingCommands as routing } from './routing'
export { telematicsCommands as telematics } from './telematics'
export { gisCommands as gis } from './gis'
export { visionCommands as vision } from './vision'
