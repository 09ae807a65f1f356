import type { InterfaceOperationName } from '../../contract'
import { inAreaOrder } from '../../contract/area'
import * as AREAS from './area-list'
import type { Call } from './call-input'
import type { Client } from './create-client'

type Area = (typeof AREAS)[keyof typeof AREAS]

/**
 * Every interface operation's call over the client, from each group's calls (`area-list.ts`): what
 * `geo-analyst call` runs. Its keys are exactly the contract's `INTERFACE_OPERATIONS` (a test asserts it).
 */
export const CLIENT_CALLS: Readonly<Record<InterfaceOperationName, Call<Client>>> = Object.assign(
  {},
  ...inAreaOrder<Area>(AREAS).map(([, area]) => area.calls),
)

/** The interface operations no group's calls cover: none, or this does not compile. */
type CalledBy<A> = A extends { calls: infer C } ? keyof C : never
type Uncovered = Exclude<InterfaceOperationName, CalledBy<Area>>
const everyOperationCalled: [Uncovered] extends [never] ? true : Uncovered = true
void everyOperationCalled
