import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { Geometry } from 'geojson'
import {
  startLocalService,
  type LocalService,
  type LocalServiceOptions,
} from '../../../electron/local-service/index'
import type { DatasetFeature } from '../../../electron/local-service/workspace/features'
import { Workspace } from '../../../electron/local-service/workspace/workspace'

export const TOKEN = 'test-token-for-the-local-service'

export async function tempDir(prefix = 'geo-ls-'): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix))
}

export function feature(geometry: Geometry | null, properties: Record<string, unknown>): DatasetFeature {
  return { geometry, properties }
}

export const square = (x0: number, y0: number, x1: number, y1: number): Geometry => ({
  type: 'Polygon',
  coordinates: [
    [
      [x0, y0],
      [x1, y0],
      [x1, y1],
      [x0, y1],
      [x0, y0],
    ],
  ],
})

export interface Running {
  service: LocalService
  dir: string
  workspace: Workspace
  join(
    params: Record<string, string | number | boolean>,
    body?: unknown,
    init?: RequestInit,
  ): Promise<{ status: number; json: Record<string, unknown> }>
  stop(): Promise<void>
}

/** A real service on 127.0.0.1 port 0 over a temp workspace holding the given datasets. */
export async function runService(
  datasets: Record<string, DatasetFeature[]>,
  options: Partial<LocalServiceOptions> = {},
): Promise<Running> {
  const dir = await tempDir()
  const workspace = new Workspace(dir)
  for (const [name, features] of Object.entries(datasets))
    await workspace.create(name, features, { source: 'test' })
  const service = await startLocalService({ workspaceDir: dir, token: TOKEN, sampleData: false, ...options })
  return {
    service,
    dir,
    workspace,
    async join(params, body, init = {}) {
      const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))
      const response = await fetch(`${service.urls.mgis_url}/query_apply/join?${query}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${TOKEN}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
        ...init,
      })
      return { status: response.status, json: (await response.json()) as Record<string, unknown> }
    },
    async stop() {
      await service.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

export function userGeometry(...geometries: Geometry[]) {
  return {
    type: 'FeatureCollection',
    features: geometries.map((geometry, i) => ({ type: 'Feature', properties: { id: i }, geometry })),
  }
}

/** prop1 of every row, sorted: the names of the matched features when prop1 is the name. */
export function names(json: Record<string, unknown>): string[] {
  return ((json.result as Array<Record<string, string>>) ?? []).map((r) => r.prop1 ?? '').sort()
}
