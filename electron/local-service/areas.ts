import { gisArea } from './gis/routes'
import { placesArea } from './places/routes'
import { routingArea } from './routing/routes'
import { telematicsArea } from './telematics/routes'
import type { LocalArea } from './service-context'
import { visionArea } from './vision/routes'

/**
 * The areas the local service implements: one line per area. A group of the spec with no area here answers
 * 501 on every path under its prefix.
 */
// prettier-ignore
export const LOCAL_AREAS: readonly LocalArea[] = [
  placesArea,
  routingArea,
  gisArea,
  telematicsArea,
  visionArea,
]
