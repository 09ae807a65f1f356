import type { z } from 'zod'
import { inAreaOrder } from './area'
import * as AREAS from './area-list'
import { unionOf, type InterfaceOperation } from './operation'

export { op, type OperationSpec, type OperationTable } from './operation'
export { appInfoSchema, type AppInfo } from './app/operations'

type Area = (typeof AREAS)[keyof typeof AREAS]
const ordered: Area[] = inAreaOrder<Area>(AREAS).map(([, area]) => area)

/**
 * The single table of operations the renderer may call: the union of the areas' tables (`area-list.ts`, one
 * line per area). Preload, every host, the CLI and the renderer's bridge are built from it; adding an
 * operation is one entry in its area's table plus its handler in that area's `register<Area>Handlers`. A name
 * two areas claim is refused when the module loads.
 */
export const operations = unionOf(...ordered.map((area) => area.operations))

/**
 * The operations of the interface itself (spec §4), from the same areas: what `geo-analyst call` offers and
 * the client tables implement, in the spec's order of the groups.
 */
export const INTERFACE_OPERATIONS = unionOf(...ordered.map((area) => area.interface))

export type Operations = typeof operations
export type OperationName = keyof Operations
export type OperationRequest<K extends OperationName> = z.input<Operations[K]['request']>
export type OperationResponse<K extends OperationName> = z.output<Operations[K]['response']>

export const OPERATION_NAMES = Object.keys(operations) as OperationName[]

export function isOperationName(name: unknown): name is OperationName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(operations, name)
}

export type InterfaceOperationName = keyof typeof INTERFACE_OPERATIONS
export const INTERFACE_OPERATION_NAMES = Object.keys(INTERFACE_OPERATIONS) as InterfaceOperationName[]

export function isInterfaceOperationName(name: unknown): name is InterfaceOperationName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(INTERFACE_OPERATIONS, name)
}

export function interfaceOperation(name: InterfaceOperationName): InterfaceOperation {
  return INTERFACE_OPERATIONS[name]
}
