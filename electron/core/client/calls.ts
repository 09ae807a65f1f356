import type { InterfaceOperationName } from '../../contract'
import type { Call } from './call-input'
import type { Client } from './create-client'
import { gisCalls } from './gis'
import { placesCalls } from './places'
import { routingCalls } from './routing'
import { telematicsCalls } from './telematics'
import { visionCalls } from './vision'

/**
 * Every interface operation's call over the client, one line per area: what `geo-analyst call` runs. Its
 * keys are exactly the contract's `INTERFACE_OPERATIONS` (a test asserts it).
 */
export const CLIENT_CALLS: Readonly<Record<InterfaceOperationName, Call<Client>>> = {
  ...placesCalls,
  ...routingCalls,
  ...gisCalls,
  ...telematicsCalls,
  ...visionCalls,
}
