import type { Entitlements } from './auth'
import type { WorkerPool } from './pool/worker-pool'
import type { PostgisWorkspace } from './postgis/workspace'
import type { Route } from './router'
import type { Workspace } from './workspace/workspace'

/** Limits and settings of one running local service. */
export interface ServiceLimits {
  /** Rows a join returns at most before it answers 206. */
  rowCap: number
  /** Largest JSON request body accepted. */
  maxBodyBytes: number
}

/** What every area's routes and engines share in a running local service. */
export interface ServiceContext {
  workspaceDir: string
  workspace: Workspace
  /**
   * Set when the service's workspace is a PostGIS database (`--workspace postgresql://…`): the dataset list
   * (§4.6) and joins with their saves (§4.5, pushed down: `postgis/join-run.ts`) answer from it. The local
   * extensions (features for the map, import by path) still use the folder `workspace`.
   */
  database?: PostgisWorkspace
  /**
   * A team server's folder from which its users may import by path (`serve --import-dir`); without it they
   * may name no path on the server's disk (`team/server-files.ts`). The single-token service takes any.
   */
  importDir?: string
  pool: WorkerPool
  limits: ServiceLimits
  entitlements: Entitlements
  /** The service's clock; tests inject one so time-dependent areas (fleet, predictive ETA) are deterministic. */
  now(): number
  /** What one area offers the others, set by the offering area when it starts (read at request time). */
  shared: SharedServices
}

/** Services an area offers the other areas of the service; each is absent until its area starts. */
export interface SharedServices {
  /**
   * The position of an eLoc, a gazetteer place's or a saved place's (case-insensitive); null when no place
   * has it. Offered by places; routing uses it for eLoc positions.
   */
  resolveEloc?: (eLoc: string) => Promise<{ lon: number; lat: number } | null>
}

/** A running area of the local service: its routes, and what to stop when the service stops. */
export interface AreaInstance {
  routes: Route[]
  close?(): Promise<void>
}

/**
 * One area of the local service (places, routing, gis, telematics, vision): started once with the service.
 * `start` loads what the area needs (reference data, simulations) and returns its routes.
 */
export interface LocalArea {
  name: string
  start(ctx: ServiceContext): Promise<AreaInstance> | AreaInstance
}
