import { inAreaOrder } from '../contract/area'
import * as REGISTERED from './area-list'
import type { LocalArea } from './service-context'

/**
 * The areas the local service implements, from `area-list.ts` (one line per area), started in the contract's
 * area order. A group of the spec with no area here answers 501 on every path under its prefix.
 */
export const LOCAL_AREAS: readonly LocalArea[] = inAreaOrder<LocalArea>(REGISTERED).map(([, area]) => area)
