import type { Feature } from 'geojson'
import { describeIssues, primaryIssue, STATUS_BY_ISSUE_KIND } from '../../contract/common/issues'
import { validateJoinRequest, type JoinParams } from '../../contract/gis/join-params'
import { GeoFailure } from '../../base/geo-failure'
import { errorBody, HttpError, JsonResponseWriter, sendJsonText } from '../http-util'
import { busyError } from '../pool/busy-error'
import { JobCancelled, PoolFull } from '../pool/worker-pool'
import { databaseImportReply } from '../postgis/import-route'
import { databaseJoinReply } from '../postgis/join-route'
import { DatabaseWorkspaceError } from '../postgis/workspace'
import { BEARER, unlessQueryFlagFalse, type Reply, type Route } from '../router'
import type { LocalArea, ServiceContext } from '../service-context'
import type { Workspace } from '../workspace/workspace'
import { createWorkspacePort } from '../workspace-port'
import { currentOwner } from '../team/principal'
import { layersList } from './layers-list'
import { tilesRoutes } from './tiles-route'
import { TILES_EXTENSION } from '../../contract/gis/tiles'
import { serverFile } from '../team/server-files'

/** HTTP status of a workspace failure, by its class. */
const STATUS_BY_CLASS: Partial<Record<string, number>> = {
  validation: 400,
  'local-configuration': 400,
  conflict: 409,
  'not-found': 404,
}

function failureReply(error: unknown): never {
  if (error instanceof GeoFailure) {
    const status = STATUS_BY_CLASS[error.error.failureClass] ?? 500
    throw new HttpError(status, error.message, {
      ...(error.error.field ? { field: error.error.field } : {}),
      ...(error.error.code ? { code: error.error.code } : {}),
    })
  }
  throw error
}

/** The join's expected cost for the pool: features of the datasets it reads and of the user geometry. */
async function joinWeight(workspace: Workspace, params: JoinParams, body?: { features: unknown[] }) {
  const count = async (name: string | undefined) =>
    name ? ((await workspace.manifestFor(name).catch(() => undefined))?.featureCount ?? 0) : 0
  return (
    (await count(params.datasetSource)) +
    (params.userGeom ? (body?.features.length ?? 0) : await count(params.datasetRef))
  )
}

/**
 * Spec §4.5: POST {mgis_url}/query_apply/join. Parameters are checked by the shared contract validator
 * (422 missing, 409 conflicting, 400 malformed); the engine runs in the worker pool, its answer streams as
 * the worker writes it, and the job stops when the client leaves.
 */
async function join(ctx: ServiceContext, request: Parameters<Route['handle']>[0]): Promise<Reply | void> {
  const checked = validateJoinRequest(request.query, request.body)
  if (!checked.ok) {
    const first = primaryIssue(checked.issues)!
    const status = STATUS_BY_ISSUE_KIND[first.kind]
    const issues = checked.issues.filter((i) => STATUS_BY_ISSUE_KIND[i.kind] === status)
    return {
      status,
      body: errorBody(status, describeIssues(issues), { field: first.field, issues: checked.issues }),
    }
  }
  const { params } = checked.value
  const body = checked.value.body as { features: Feature[] } | undefined
  // A PostGIS workspace: the join is pushed down to the database (decision 030), its rows written in the
  // pool's database threads; large joins take their turn (fairly between users) for one of the places.
  const database = ctx.database
  if (database)
    return databaseJoinReply(ctx, database, {
      params,
      ...(body ? { body } : {}),
      rowCap: ctx.limits.rowCap,
      signal: request.signal,
      res: request.res,
    }).catch((error: unknown) => {
      if (error instanceof JobCancelled) return
      if (error instanceof PoolFull) throw busyError(error)
      throw error
    })
  const writer = new JsonResponseWriter(request.res)
  try {
    await ctx.pool.run(
      'gis.join',
      { workspaceDir: ctx.workspaceDir, params, body, rowCap: ctx.limits.rowCap, owner: currentOwner() },
      {
        signal: request.signal,
        weight: await joinWeight(ctx.workspace, params, body),
        onPart: (part) => writer.write(part.status, part.bytes, part.last, part.written),
      },
    )
  } catch (error) {
    if (error instanceof JobCancelled) return
    if (error instanceof PoolFull) {
      throw busyError(error)
    }
    // Part of the body is out: the client must see a cut response, not a second status.
    if (writer.headersSent) {
      request.res.destroy(error instanceof Error ? error : undefined)
      return
    }
    throw error
  }
}

/**
 * The spatial-analytics area (spec §4.5, §4.6), plus the local workspace extension the app's core uses for
 * the built-in profile: a dataset's features for the map, and import of a file by path. Both extensions
 * take the service's bearer token; they are not part of the spec and the cloud has no such paths.
 */
export const gisArea: LocalArea = {
  name: 'gis',
  start(ctx) {
    const port = createWorkspacePort(ctx.workspaceDir)
    const routes: Route[] = [
      {
        method: 'GET',
        path: '/mgis/v2/getLayersList',
        auth: BEARER,
        body: 'none',
        handle: async () =>
          layersList(ctx.database ?? ctx.workspace, ctx.database ? [TILES_EXTENSION] : []).catch(
            (error: unknown) => {
              // The database's problem in plain words (§4.6 declares 500 for a failure of the service).
              if (error instanceof DatabaseWorkspaceError)
                throw new HttpError(500, error.message, { code: `database-${error.problem}` })
              throw error
            },
          ),
      },
      {
        method: 'POST',
        path: '/mgis/query_apply/join',
        auth: BEARER,
        write: unlessQueryFlagFalse('saveAsNewDataset'),
        body: 'json',
        handle: (request) => join(ctx, request),
      },
      {
        method: 'GET',
        path: '/local/datasets/:name/features',
        auth: BEARER,
        body: 'none',
        handle: async ({ params, res }) => {
          const found = await port.features(params.name!).catch(failureReply)
          sendJsonText(res, 200, found.geojson, {
            'x-dataset-name': encodeURIComponent(found.name),
            'x-feature-count': String(found.featureCount),
          })
        },
      },
      {
        method: 'POST',
        path: '/local/datasets/import',
        auth: BEARER,
        write: true,
        body: 'json',
        handle: async ({ body }) => {
          const input = (body ?? {}) as Record<string, unknown>
          if (typeof input.path !== 'string' || input.path === '')
            throw new HttpError(400, 'path: the file to import is required', { field: 'path' })
          for (const key of ['fileName', 'name'] as const) {
            if (input[key] !== undefined && typeof input[key] !== 'string')
              throw new HttpError(400, `${key}: must be a string`, { field: key })
          }
          if (input.skipInvalid !== undefined && typeof input.skipInvalid !== 'boolean')
            throw new HttpError(400, 'skipInvalid: must be true or false', { field: 'skipInvalid' })
          // A team server's user names a file on the server's disk: only in its import folder.
          const file = serverFile(input.path, ctx.importDir)
          // A PostGIS workspace: the file becomes a table of its first schema.
          if (ctx.database)
            return databaseImportReply(ctx.database, {
              path: file,
              ...(input.fileName ? { fileName: input.fileName as string } : {}),
              ...(input.name !== undefined ? { name: input.name as string } : {}),
              ...(input.skipInvalid ? { skipInvalid: true } : {}),
            })
          const info = await port
            .importPath({
              path: file,
              ...(input.fileName ? { fileName: input.fileName as string } : {}),
              ...(input.name ? { name: input.name as string } : {}),
              ...(input.skipInvalid ? { skipInvalid: true } : {}),
            })
            .catch(failureReply)
          return { status: 201, body: info }
        },
      },
      ...tilesRoutes(ctx),
    ]
    return { routes }
  },
}
