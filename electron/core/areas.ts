import { inAreaOrder } from '../contract/area'
import type { RegisterArea } from './area'
import * as REGISTERED from './area-list'

/**
 * Every area's handler registration, from `area-list.ts` (one line per area), in the contract's area order.
 * Hosts call none of them: `createCore` does.
 */
export const CORE_AREAS: readonly RegisterArea[] = inAreaOrder<RegisterArea>(REGISTERED).map(
  ([, register]) => register,
)
