import { existsSync, promises as fs } from 'node:fs'
import path from 'node:path'
import { writeFileAtomic } from '../../base/atomic-write'
import { HttpError } from '../http-util'
import { JobCancelled, PoolFull } from '../pool/worker-pool'
import { BEARER, type Route, type RouteRequest } from '../router'
import type { ServiceContext } from '../service-context'
import { extractFormat } from './data/import-network'
import {
  listNetworks,
  NETWORK_ID_RULE,
  networkFile,
  networkIdFromFile,
  networksDir,
  NetworkNotFound,
  removeNetwork,
  SAMPLE_NETWORK,
  type NetworkEntry,
} from './data/networks'
import { defaultSpeedModel, parseSpeedModelCsv, SpeedModelError, type SpeedModel } from './data/speed-model'
import { serverFile } from '../team/server-files'

/** What the app sees of a network (no file paths). */
function publicEntry(n: NetworkEntry) {
  const { file: _file, ...rest } = n
  void _file
  return rest
}

const SPEED_MODEL_FILE = 'speed-model.json'

/** The speed model of the workspace: the imported profiles when there are, else the default model. */
export class SpeedModelStore {
  private cached: { stamp: string; model: SpeedModel } | undefined

  constructor(private readonly workspaceDir: string) {}

  private get file(): string {
    return path.join(networksDir(this.workspaceDir), SPEED_MODEL_FILE)
  }

  async get(): Promise<SpeedModel> {
    const stat = await fs.stat(this.file).catch(() => undefined)
    const stamp = stat ? `${stat.size}:${stat.mtimeMs}` : 'default'
    if (this.cached?.stamp === stamp) return this.cached.model
    let model = defaultSpeedModel()
    if (stat) {
      try {
        model = JSON.parse(await fs.readFile(this.file, 'utf8')) as SpeedModel
      } catch {
        // A damaged file falls back to the model; importing profiles again replaces it.
      }
    }
    this.cached = { stamp, model }
    return model
  }

  async importCsv(file: string, name: string): Promise<SpeedModel> {
    const model = parseSpeedModelCsv(await fs.readFile(file, 'utf8'), name)
    await writeFileAtomic(this.file, JSON.stringify(model), { mode: 0o644 })
    return model
  }

  async reset(): Promise<void> {
    await fs.rm(this.file, { force: true })
  }
}

function describeModel(model: SpeedModel) {
  return {
    name: model.name,
    model: model.model,
    classes: model.factors.length,
    hours: model.factors[0]?.length ?? 0,
  }
}

/** Remove what an interrupted import of `id` left behind (the atomic writer's temporary file). */
async function removeLeftovers(dir: string, id: string): Promise<void> {
  const names = await fs.readdir(dir).catch(() => [] as string[])
  await Promise.all(
    names
      .filter((n) => n.startsWith(`.${id}.roadnet.`) && n.endsWith('.tmp'))
      .map((n) => fs.rm(path.join(dir, n), { force: true })),
  )
}

/**
 * POST /local/road-networks/import {path, id?, name?, timeZone?, replace?}: import an OSM extract into the
 * workspace in the worker pool. The answer is NDJSON: progress lines `{"progress": {phase, fraction}}` as
 * the import goes, then `{"network": …}` or `{"error": {status, message, field?}}`. A client that goes away
 * cancels the import; nothing is left behind.
 */
async function importRoute(ctx: ServiceContext, { body, res, signal }: RouteRequest): Promise<void> {
  const input = (body ?? {}) as Record<string, unknown>
  if (typeof input.path !== 'string' || input.path === '')
    throw new HttpError(400, 'path: the extract to import is required', { field: 'path' })
  // A team server's user names a file on the server's disk: only in its import folder.
  const file = serverFile(input.path, ctx.importDir)
  for (const key of ['id', 'name', 'timeZone'] as const)
    if (input[key] !== undefined && typeof input[key] !== 'string')
      throw new HttpError(400, `${key}: must be a string`, { field: key })
  if (!extractFormat(file))
    throw new HttpError(
      400,
      `path: ${path.basename(file)} is not an extract this service reads (.osm.pbf, .osm, .geojson, .geojsonl)`,
      { field: 'path' },
    )
  if (!existsSync(file))
    throw new HttpError(404, `path: ${path.basename(file)} does not exist`, { field: 'path' })
  const id = (input.id as string | undefined) ?? networkIdFromFile(file)
  if (!NETWORK_ID_RULE.test(id))
    throw new HttpError(
      400,
      `id: "${id.slice(0, 64)}" must be lower-case letters, digits, - or _, starting with a letter`,
      {
        field: 'id',
      },
    )
  if (id === SAMPLE_NETWORK.id) throw new HttpError(409, `id: ${id} is the bundled sample's`, { field: 'id' })
  const outFile = networkFile(ctx.workspaceDir, id)
  if (existsSync(outFile) && input.replace !== true)
    throw new HttpError(409, `id: a road network "${id}" exists; remove it or import with replace`, {
      field: 'id',
    })
  if (input.timeZone !== undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: input.timeZone as string })
    } catch {
      throw new HttpError(
        400,
        `timeZone: "${String(input.timeZone).slice(0, 60)}" is not an IANA time zone`,
        {
          field: 'timeZone',
        },
      )
    }
  }
  const size = (await fs.stat(file)).size
  res.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' })
  const line = (value: unknown) => {
    if (!res.destroyed) res.write(JSON.stringify(value) + '\n')
  }
  try {
    const outcome = await ctx.pool.run(
      'routing.import',
      {
        file,
        outFile,
        meta: {
          id,
          name: (input.name as string | undefined) ?? path.basename(file),
          attribution: 'OpenStreetMap contributors, ODbL',
          source: path.basename(file),
          ...(input.timeZone ? { timeZone: input.timeZone as string } : {}),
        },
      },
      {
        signal,
        weight: size,
        onProgress: (p) => line({ progress: { phase: p.phase, fraction: (p.done ?? 0) / (p.total ?? 1) } }),
      },
    )
    const entry = (await listNetworks(ctx.workspaceDir)).find((n) => n.id === outcome.header.id)
    line({ network: entry ? publicEntry(entry) : { id } })
  } catch (error) {
    await removeLeftovers(networksDir(ctx.workspaceDir), id)
    if (error instanceof JobCancelled) return
    const status = error instanceof PoolFull ? error.status : 400
    line({
      error: { status, message: error instanceof Error ? error.message : String(error), field: 'path' },
    })
  } finally {
    if (!res.destroyed) res.end()
  }
}

/**
 * The routing area's local extensions for the app and the CLI (bearer token, like /local/datasets): the
 * road networks of the workspace (list, import, remove) and the speed profiles of the time-dependent model.
 */
export function networkRoutes(ctx: ServiceContext, speedModels: SpeedModelStore): Route[] {
  return [
    {
      method: 'GET',
      path: '/local/road-networks',
      auth: BEARER,
      body: 'none',
      handle: async () => ({
        status: 200,
        body: {
          networks: (await listNetworks(ctx.workspaceDir)).map(publicEntry),
          speedModel: describeModel(await speedModels.get()),
        },
      }),
    },
    {
      method: 'POST',
      path: '/local/road-networks/import',
      auth: BEARER,
      write: true,
      body: 'json',
      handle: (request) => importRoute(ctx, request),
    },
    {
      method: 'POST',
      path: '/local/road-networks/speed-profiles',
      auth: BEARER,
      write: true,
      body: 'json',
      handle: async ({ body }) => {
        const input = (body ?? {}) as Record<string, unknown>
        if (typeof input.path !== 'string' || input.path === '')
          throw new HttpError(400, 'path: the CSV of speed profiles is required', { field: 'path' })
        const file = serverFile(input.path, ctx.importDir)
        try {
          const model = await speedModels.importCsv(file, path.basename(file))
          return { status: 201, body: { speedModel: describeModel(model) } }
        } catch (error) {
          if (error instanceof SpeedModelError)
            throw new HttpError(400, `${path.basename(input.path)}: ${error.message}`, { field: 'path' })
          throw new HttpError(404, `path: ${path.basename(input.path)} cannot be read`, { field: 'path' })
        }
      },
    },
    {
      method: 'DELETE',
      path: '/local/road-networks/speed-profiles',
      auth: BEARER,
      write: true,
      body: 'none',
      handle: async () => {
        await speedModels.reset()
        return { status: 200, body: { speedModel: describeModel(await speedModels.get()) } }
      },
    },
    // After the literal paths above, which it would also match.
    {
      method: 'DELETE',
      path: '/local/road-networks/:id',
      auth: BEARER,
      write: true,
      body: 'none',
      handle: async ({ params }) => {
        try {
          await removeNetwork(ctx.workspaceDir, params.id!)
        } catch (error) {
          if (error instanceof NetworkNotFound) throw new HttpError(404, error.message, { field: 'id' })
          throw new HttpError(409, (error as Error).message, { field: 'id' })
        }
        return { status: 200, body: { removed: params.id } }
      },
    },
  ]
}
