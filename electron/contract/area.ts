import type { z } from 'zod'
import { GROUP_NAMES } from './groups'
import type { InterfaceTable, OperationTable } from './operation'

/**
 * What one area puts in the contract, in one object exported by `electron/contract/<area>/operations.ts`:
 * its renderer operations, its interface operations (spec §4; empty for an area outside the interface) and
 * the events it pushes. `electron/contract/area-list.ts` lists every area's object, one line each; the
 * operation and event tables are derived from that list.
 */
export interface ContractArea {
  readonly operations: OperationTable
  readonly interface: InterfaceTable
  readonly events: Readonly<Record<string, z.ZodType>>
}

/** The app's own parts first, then the interface's groups in the spec's order, then any other area by name. */
function rank(name: string): number {
  if (name === 'app') return 0
  if (name === 'map') return 1
  const group = (GROUP_NAMES as readonly string[]).indexOf(name)
  return group < 0 ? 2 + GROUP_NAMES.length : 2 + group
}

/**
 * The entries of a layer's area list (a module of one-line re-exports, `export { x as <area> } from …`) in one
 * order whatever the bundler does with a namespace's keys: what the CLI's help, `geo-analyst call --help` and
 * the service's start order follow.
 */
export function inAreaOrder<T>(list: Readonly<Record<string, T>>): Array<[name: string, entry: T]> {
  return Object.entries(list).sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))
}
