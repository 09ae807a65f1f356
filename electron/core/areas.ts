import { registerAppHandlers } from './app/handlers'
import type { RegisterArea } from './area'
import { registerGisHandlers } from './gis/handlers'
import { registerMapHandlers } from './map/handlers'
import { registerPlacesHandlers } from './places/handlers'
import { registerRoutingHandlers } from './routing/handlers'
import { registerTelematicsHandlers } from './telematics/handlers'
import { registerVisionHandlers } from './vision/handlers'

/** Every area's handler registration, one line per area. Hosts call none of them: `createCore` does. */
export const CORE_AREAS: readonly RegisterArea[] = [
  registerAppHandlers,
  registerMapHandlers,
  registerPlacesHandlers,
  registerRoutingHandlers,
  registerTelematicsHandlers,
  registerGisHandlers,
  registerVisionHandlers,
]
