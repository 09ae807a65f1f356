import { promises as fs } from 'node:fs'
import path from 'node:path'
import { describeIssues, type RequestIssue } from '../../contract/common/issues'
import {
  matrixErrorCode,
  parseLonLat,
  validateMatrix,
  validatePredictive,
  type MatrixErrorCode,
} from '../../contract/routing/matrix'
import { busyError } from '../pool/busy-error'
import { JobCancelled, PoolFull } from '../pool/worker-pool'
import { HttpError } from '../http-util'
import { licenceKeySegment, type Reply, type Route, type RouteRequest } from '../router'
import type { LocalArea, ServiceContext } from '../service-context'
import { listNetworks, networksDir, type NetworkEntry } from './data/networks'
import { networkRoutes, SpeedModelStore } from './network-routes'
import type { SpeedModel } from './data/speed-model'
import type { LonLat, NetworkRef, TrafficSpec } from './engine/jobs'

/** `version` of the local answers (§2.3). */
export const ROUTING_VERSION = 'geo-analyst-local-1'
const SERVER = 'geo-analyst local service'

/** §2.3 error answer: HTTP 400 with the §7 code in results.code, the field and every issue named. */
function refused(code: MatrixErrorCode, issues: readonly RequestIssue[], predictive: boolean): Reply {
  const message = describeIssues(issues)
  return {
    status: 400,
    body: {
      ...(predictive ? { check: 'local' } : { Server: SERVER }),
      version: ROUTING_VERSION,
      responseCode: predictive ? '400' : 400,
      results: { code, message },
      code: '400',
      success: false,
      message,
      field: issues[0]?.field,
      issues,
    },
  }
}

/**
 * Positions from the path: lon,lat pairs, and eLocs found by the places area (gazetteer or saved places).
 * An eLoc no place has (or with places not running) stays unresolved: its cells are null, like a position
 * beyond every network's snap limit.
 */
async function readPositions(ctx: ServiceContext, text: string): Promise<Array<LonLat | null>> {
  return Promise.all(
    text.split(';').map(async (p) => {
      const pair = parseLonLat(p)
      if (pair) return pair
      const place = await ctx.shared.resolveEloc?.(p.trim()).catch(() => null)
      return place ? ([place.lon, place.lat] as LonLat) : null
    }),
  )
}

const indexes = (text: string | undefined, count: number, fallback: number[]): number[] =>
  text === undefined
    ? fallback
    : text
        .split(';')
        .map(Number)
        .filter((i) => i < count)

/** The workspace's networks and the bundled sample, re-read when the networks folder changes. */
class NetworkList {
  private cached: { stamp: string; list: NetworkEntry[] } | undefined

  constructor(private readonly workspaceDir: string) {}

  async refs(): Promise<NetworkRef[]> {
    const stat = await fs.stat(networksDir(this.workspaceDir)).catch(() => undefined)
    const stamp = stat ? String(stat.mtimeMs) : 'none'
    if (!this.cached || this.cached.stamp !== stamp)
      this.cached = { stamp, list: await listNetworks(this.workspaceDir) }
    return this.cached.list.map((n) => ({ id: n.id, file: n.file, bbox: n.bbox }))
  }
}

/** 403 when the licence key is not allocated this resource or profile (configured in the service's entitlements). */
function entitled(ctx: ServiceContext, resource: string, profile: string): void {
  const allowed = ctx.entitlements.routingAllowed
  if (allowed?.resources && !allowed.resources.includes(resource))
    throw new HttpError(403, `this licence key is not entitled to the resource ${resource}`, {
      field: 'resources',
    })
  if (allowed?.profiles && !allowed.profiles.includes(profile))
    throw new HttpError(403, `this licence key is not entitled to the profile ${profile}`, {
      field: 'profile',
    })
}

/** The workspace's imported speed profiles for a job (the engine uses its default model otherwise). */
async function imported(store: SpeedModelStore): Promise<{ speedModel?: SpeedModel }> {
  const model = await store.get()
  return model.model ? {} : { speedModel: model }
}

async function runJob<T>(work: () => Promise<T>): Promise<T | undefined> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof JobCancelled) return undefined
    if (error instanceof PoolFull) throw busyError(error)
    throw error
  }
}

/**
 * §4.3 GET {advancedmaps_url}/{key}/{resource}/{profile}/{positions}: the shared validator decides what is
 * refused and with which code; the matrix runs in the worker pool and stops when the client goes away.
 */
async function matrix(
  ctx: ServiceContext,
  networks: NetworkList,
  speedModels: SpeedModelStore,
  request: RouteRequest,
): Promise<Reply | void> {
  const { params, query } = request
  const raw: Record<string, unknown> = Object.fromEntries(query)
  const checked = validateMatrix({
    ...raw,
    resources: params.resource,
    profile: params.profile,
    geopositions: params.positions,
  })
  if (!checked.ok) return refused(matrixErrorCode(checked.issues), checked.issues, false)
  const p = checked.value
  entitled(ctx, p.resources, p.profile)
  const positions = await readPositions(ctx, p.geopositions)
  const all = positions.map((_, i) => i)
  const traffic: TrafficSpec =
    p.resources === 'distance_matrix_eta'
      ? { kind: 'eta', time: Math.floor(ctx.now() / 1000) }
      : p.resources === 'distance_matrix_traffic'
        ? { kind: 'typical' }
        : { kind: 'free' }
  const refs = await networks.refs()
  const model = await imported(speedModels)
  const outcome = await runJob(() =>
    ctx.pool.run(
      'routing.matrix',
      {
        kind: 'matrix',
        networks: refs,
        profile: p.profile,
        rtype: p.rtype ?? 0,
        traffic,
        positions,
        sources: indexes(p.sources, positions.length, [0]),
        destinations: indexes(p.destinations, positions.length, all),
        ...model,
        cacheDir: path.join(networksDir(ctx.workspaceDir), '.cache'),
      },
      { signal: request.signal, weight: positions.length },
    ),
  )
  if (!outcome) return
  return {
    status: 200,
    body: {
      Server: SERVER,
      version: ROUTING_VERSION,
      responseCode: 200,
      results: { code: outcome.code, distances: outcome.distances, durations: outcome.durations },
      // Local extensions (the cloud does not send them; clients ignore what they do not know).
      network: outcome.network,
      snappedPositions: outcome.snapped,
    },
  }
}

/** §4.4 GET {advancedmaps_url}/{key}/distance_matrix_predictive/driving/{coordinates}?dep_time= */
async function predictive(
  ctx: ServiceContext,
  networks: NetworkList,
  speedModels: SpeedModelStore,
  request: RouteRequest,
): Promise<Reply | void> {
  const raw: Record<string, unknown> = Object.fromEntries(request.query)
  const checked = validatePredictive({ ...raw, coordinates: request.params.coordinates })
  if (!checked.ok) return refused(matrixErrorCode(checked.issues), checked.issues, true)
  const p = checked.value
  entitled(ctx, 'distance_matrix_predictive', 'driving')
  const positions = p.coordinates.split(';').map((c) => parseLonLat(c)!)
  const departure = p.dep_time ?? Math.floor(ctx.now() / 1000)
  const refs = await networks.refs()
  const model = await imported(speedModels)
  const outcome = await runJob(() =>
    ctx.pool.run(
      'routing.predictive',
      {
        kind: 'predictive',
        networks: refs,
        positions,
        departures: [departure],
        ...model,
      },
      { signal: request.signal, weight: positions.length },
    ),
  )
  if (!outcome) return
  const r = outcome.results[0]!
  return {
    status: 200,
    body: {
      check: 'local',
      version: ROUTING_VERSION,
      responseCode: '200',
      results: { code: outcome.code, distances: [[r.distance]], durations: [[r.duration]] },
      network: outcome.network,
      snappedPositions: outcome.snapped,
      departure,
      speedModel: outcome.model ? 'model' : 'imported',
    },
  }
}

/**
 * The routing area of the local service: the distance matrix and the predictive matrix (§4.3, §4.4), and
 * the local extensions for the workspace's road networks and speed profiles.
 */
export const routingArea: LocalArea = {
  name: 'routing',
  start(ctx) {
    const networks = new NetworkList(ctx.workspaceDir)
    const speedModels = new SpeedModelStore(ctx.workspaceDir)
    const key = licenceKeySegment('key')
    const routes: Route[] = [
      // Before the general pattern, which would also match it.
      {
        method: 'GET',
        path: '/advancedmaps/:key/distance_matrix_predictive/driving/:coordinates',
        auth: key,
        body: 'none',
        handle: (request) => predictive(ctx, networks, speedModels, request),
      },
      {
        method: 'GET',
        path: '/advancedmaps/:key/:resource/:profile/:positions',
        auth: key,
        body: 'none',
        handle: (request) => matrix(ctx, networks, speedModels, request),
      },
      ...networkRoutes(ctx, speedModels),
    ]
    return { routes }
  },
}
