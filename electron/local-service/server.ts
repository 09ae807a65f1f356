import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { BaseUrls } from '../contract/settings'
import { authorize, bearerToken, type Entitlements, type ServiceGroup } from './auth'
import { JoinPool } from './engine/join-pool'
import { errorBody, HttpError, sendJson } from './http-util'
import { handleJoin } from './routes/join'
import { layersList } from './routes/layers'
import { Workspace } from './workspace/workspace'

/** The loopback paths of the six base placeholders (architecture page, "Local service"). */
export const BASE_PATHS: Readonly<Record<keyof BaseUrls, string>> = {
  atlas_url: '/atlas',
  advancedmaps_url: '/advancedmaps',
  mgis_url: '/mgis',
  mgis_v2_url: '/mgis/v2',
  telematics_url: '/telematics',
  aiml_url: '/aiml',
}

/** Longest prefix first, so /mgis/v2 wins over /mgis. */
const GROUP_BY_PREFIX: ReadonlyArray<[string, ServiceGroup]> = [
  ['/mgis/v2', 'gis'],
  ['/mgis', 'gis'],
  ['/atlas', 'places'],
  ['/advancedmaps', 'routing'],
  ['/telematics', 'telematics'],
  ['/aiml', 'vision'],
]

export interface ServerOptions {
  workspaceDir: string
  token: string
  licenceKey: string
  entitlements: Entitlements
  /** Rows a join returns at most before it answers 206 (default 1,000,000). */
  rowCap: number
  maxBodyBytes: number
  joinWorkers: number
}

export const DEFAULT_ROW_CAP = 1_000_000
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024

type Route = {
  methods: string[]
  handle: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>
}

export function createLocalServer(options: ServerOptions): { server: Server; pool: JoinPool } {
  const workspace = new Workspace(options.workspaceDir)
  const pool = new JoinPool(options.joinWorkers)
  const routes: Record<string, Route> = {
    '/mgis/v2/getLayersList': {
      methods: ['GET'],
      handle: async (_req, res) => {
        const reply = await layersList(workspace)
        sendJson(res, reply.status, reply.body)
      },
    },
    '/mgis/query_apply/join': {
      methods: ['POST'],
      handle: (req, res, url) =>
        handleJoin(req, res, url, {
          workspaceDir: options.workspaceDir,
          pool,
          rowCap: options.rowCap,
          maxBodyBytes: options.maxBodyBytes,
        }),
    },
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const path = url.pathname.replace(/\/+$/, '') || '/'
    const found = GROUP_BY_PREFIX.find(([prefix]) => path === prefix || path.startsWith(prefix + '/'))
    if (!found) {
      sendJson(
        res,
        404,
        errorBody(
          404,
          `no such path: ${path}; the service answers under ${Object.values(BASE_PATHS).join(', ')}`,
        ),
      )
      return
    }
    const [prefix, group] = found
    const presented =
      group === 'routing'
        ? decodeURIComponent(path.slice(prefix.length + 1).split('/')[0] ?? '') || undefined
        : bearerToken(req.headers.authorization)
    const auth = authorize(group, presented, options, options.entitlements)
    if (!auth.ok) {
      sendJson(
        res,
        auth.status,
        errorBody(auth.status, auth.message),
        auth.status === 401 ? { 'www-authenticate': 'Bearer' } : {},
      )
      return
    }
    const route = routes[path]
    if (!route) {
      const shown = group === 'routing' ? `${prefix}/…` : path
      sendJson(
        res,
        501,
        errorBody(501, `not implemented by the local service yet: ${req.method} ${shown} (group ${group})`, {
          group,
        }),
      )
      return
    }
    if (!route.methods.includes(req.method ?? '')) {
      sendJson(
        res,
        405,
        errorBody(405, `${req.method} is not allowed here; use ${route.methods.join(', ')}`),
        {
          allow: route.methods.join(', '),
        },
      )
      return
    }
    await route.handle(req, res, url)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof HttpError) {
        sendJson(res, error.status, errorBody(error.status, error.message, error.extra))
        return
      }
      // Never the stack or the input: a short reason only.
      sendJson(
        res,
        500,
        errorBody(500, `internal error: ${error instanceof Error ? error.message.slice(0, 200) : 'unknown'}`),
      )
    })
  })
  server.on('close', () => void pool.close())
  return { server, pool }
}

export async function listen(server: Server, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  return (server.address() as AddressInfo).port
}

export function baseUrls(port: number): BaseUrls {
  const origin = `http://127.0.0.1:${port}`
  return Object.fromEntries(Object.entries(BASE_PATHS).map(([k, p]) => [k, origin + p])) as BaseUrls
}
