import type { Feature } from 'geojson'
import type { JoinParams } from '../../contract/gis/join-params'
import type { DatasetFeature } from '../workspace/features'
import { Workspace, WorkspaceError } from '../workspace/workspace'
import { loadGeos } from './geos'
import {
  JoinInputError,
  resultFeatures,
  resultRowsJson,
  runJoin,
  selection,
  tableFromFeatures,
  type FeatureTable,
} from './join'

/** What the HTTP layer sends back: a status and the JSON body as text. */
export interface JoinReply {
  status: number
  text: string
}

export interface JoinJob {
  workspaceDir: string
  params: JoinParams
  /** The user geometry (a validated FeatureCollection) when userGeom=true. */
  body?: { features: Feature[] }
  rowCap: number
  repairUserGeometry?: boolean
}

/** Datasets read once per thread and kept while their manifest is unchanged. */
const cache = new Map<string, { created: string; table: FeatureTable }>()

async function table(workspace: Workspace, name: string, param: string): Promise<FeatureTable> {
  const manifest = await workspace.find(name)
  if (!manifest) throw new JoinInputError(404, `${param}: no dataset named "${name}" in the workspace`, param)
  const key = `${workspace.dir}\u0000${manifest.name}`
  const hit = cache.get(key)
  if (hit && hit.created === manifest.created) return hit.table
  const { features, index } = await workspace.read(manifest.name)
  const t: FeatureTable = { name: manifest.name, features, fields: manifest.fields.map((f) => f.name), index }
  cache.set(key, { created: manifest.created, table: t })
  return t
}

export function forgetCachedDatasets(): void {
  cache.clear()
}

function errorReply(status: number, message: string, extra: Record<string, unknown> = {}): JoinReply {
  return { status, text: JSON.stringify({ code: String(status), success: false, message, ...extra }) }
}

/** Run one join against the workspace, save it when asked, and say what to answer (spec §4.5 statuses). */
export async function executeJoin(job: JoinJob): Promise<JoinReply> {
  const geos = await loadGeos()
  const workspace = new Workspace(job.workspaceDir)
  const p = job.params
  try {
    if (p.saveAsNewDataset && p.newDatasetNme && (await workspace.find(p.newDatasetNme))) {
      return errorReply(409, `newDatasetNme: a dataset named "${p.newDatasetNme}" already exists`, {
        field: 'newDatasetNme',
      })
    }
    const source = await table(workspace, p.datasetSource, 'datasetSource')
    let ref: FeatureTable | undefined
    if (p.userGeom && job.body) {
      const features: DatasetFeature[] = job.body.features.map((f) => ({
        geometry: f.geometry,
        properties: (f.properties ?? {}) as Record<string, unknown>,
      }))
      ref = tableFromFeatures('user geometry', features)
    } else if (p.datasetRef) {
      ref = await table(workspace, p.datasetRef, 'datasetRef')
    }
    const sel = selection(p, source, p.userGeom ? undefined : ref)
    const output = runJoin(geos, {
      params: p,
      source,
      ref,
      refIsUserGeometry: p.userGeom === true,
      rowCap: job.rowCap,
      repairUserGeometry: job.repairUserGeometry,
    })
    if (output.pairs.length === 0) return errorReply(404, 'no data found: no feature satisfies the query')
    const extra: Record<string, unknown> = {}
    if (p.saveAsNewDataset && p.newDatasetNme) {
      const saved = await workspace.create(p.newDatasetNme, resultFeatures(output.pairs, source, ref), {
        source: `join: ${p.queryType} ${p.operator} of ${source.name}${ref ? ` with ${ref.name}` : ''}`,
      })
      extra.savedDataset = saved.name
    }
    const rows = resultRowsJson(geos, output.pairs, sel, source, ref)
    const columns = sel.columns.map((c, i) => ({ prop: `prop${i + 1}`, table: c.table, name: c.name }))
    const count = output.pairs.length
    const head = {
      code: output.truncated ? '206' : '200',
      success: true,
      message: output.truncated
        ? `partial: the result was cut at ${job.rowCap} rows`
        : `${count} row${count === 1 ? '' : 's'}`,
      rowCount: count,
      truncated: output.truncated,
      columns,
      ...extra,
    }
    // The rows go in as prepared JSON text; the other members are serialized as usual.
    const text = JSON.stringify(head).slice(0, -1) + ',"result":' + rows + '}'
    return { status: output.truncated ? 206 : 200, text }
  } catch (error) {
    if (error instanceof JoinInputError) {
      return errorReply(error.status, error.message, {
        ...(error.field ? { field: error.field } : {}),
        ...(error.detail ?? {}),
      })
    }
    if (error instanceof WorkspaceError) {
      const status = error.kind === 'conflict' ? 409 : error.kind === 'not-found' ? 404 : 400
      return errorReply(status, error.message)
    }
    throw error
  }
}
