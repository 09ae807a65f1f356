import type { z } from 'zod'
import { appOperations } from './app/operations'
import { gisInterface, gisOperations } from './gis/operations'
import { mapOperations } from './map/operations'
import { unionOf, type InterfaceOperation } from './operation'
import { placesInterface, placesOperations } from './places/operations'
import { routingInterface, routingOperations } from './routing/operations'
import { telematicsInterface, telematicsOperations } from './telematics/operations'
import { visionInterface, visionOperations } from './vision/operations'

export { op, type OperationSpec, type OperationTable } from './operation'
export { appInfoSchema, type AppInfo } from './app/operations'

/**
 * The single table of operations the renderer may call: the union of the areas' tables, one line per area.
 * Preload, every host, the CLI and the renderer's bridge are built from it; adding an operation is one entry
 * in its area's table plus its handler in that area's `register<Area>Handlers`.
 */
// prettier-ignore
export const operations = unionOf(
  appOperations,
  mapOperations,
  placesOperations,
  routingOperations,
  telematicsOperations,
  gisOperations,
  visionOperations,
)

/**
 * The operations of the interface itself (spec §4), per area, one line per area: what `geo-analyst call`
 * offers and the client tables implement.
 */
export const INTERFACE_OPERATIONS = unionOf(
  placesInterface,
  routingInterface,
  gisInterface,
  telematicsInterface,
  visionInterface,
)

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
