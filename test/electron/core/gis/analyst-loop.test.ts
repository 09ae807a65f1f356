import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventName, JoinRun, RunSummary } from '../../../../electron/contract'
import { createCore, type Core } from '../../../../electron/core/app-core'
import { MemorySecretStore } from '../../../../electron/core/secrets/memory-secret-store'
import { RequestHistory } from '../../../../electron/core/workspace/request-history'
import { startLocalService } from '../../../../electron/local-service'
import { UploadStore } from '../../../../electron/web/uploads'
import { rowsOf } from '../../../support/join-rows'

/**
 * The analyst's loop driven through `core.call` exactly as the hosts do, against a real local service
 * over a temp workspace holding the sample datasets.
 */

const dirs: string[] = []
const temp = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'geo-analyst-loop-'))
  dirs.push(dir)
  return dir
}

let core: Core
let dataDir: string
let uploads: UploadStore
/** A file offered for import as the browser host receives one: its reference. */
const offer = async (text: string, fileName: string) =>
  (await uploads.receive(Readable.from([Buffer.from(text)]), fileName)).file
const events: Array<{ name: EventName; payload: unknown }> = []

const mumbai = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { label: 'Mumbai area' },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [72.7, 18.8],
            [73.2, 18.8],
            [73.2, 19.4],
            [72.7, 19.4],
            [72.7, 18.8],
          ],
        ],
      },
    },
  ],
}

const intersects = {
  queryType: 'spatialOperation',
  datasetSource: 'india_cities',
  operator: 'Intersects',
  sourceProperty: 'geom',
  selectionParamSource: 'name,population,geom',
  userGeom: true,
}

async function value<T = unknown>(name: string, payload: unknown): Promise<T> {
  const result = await core.call(name, payload)
  if (!result.ok) throw new Error(`${name} failed: ${result.error.failureClass} ${result.error.message}`)
  return result.value as T
}

async function error(name: string, payload: unknown) {
  const result = await core.call(name, payload)
  if (result.ok) throw new Error(`${name} unexpectedly succeeded`)
  return result.error
}

async function joinRequestsSent(): Promise<number> {
  const entries = await new RequestHistory(dataDir, core.redactor).list(1000)
  return entries.filter((e) => e.operation === 'gis.join' && e.attempts > 0).length
}

beforeAll(async () => {
  dataDir = temp()
  const workspaceDir = temp()
  uploads = new UploadStore({ tempDir: temp() })
  core = await createCore({
    configDir: temp(),
    dataDir,
    host: 'web',
    version: '0',
    secretStore: new MemorySecretStore(),
    startLocalService: () => startLocalService({ workspaceDir }),
    ports: { importFiles: uploads },
  })
  core.events.subscribe((name, payload) => events.push({ name, payload }))
}, 60_000)

afterAll(async () => {
  await core?.close()
  await uploads?.close()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

describe('datasets of the Local profile', () => {
  it('lists the sample datasets with geometry type, fields and feature count, all local', async () => {
    const { datasets } = await value<{ datasets: Array<Record<string, unknown>> }>('gis.layers', {})
    const cities = datasets.find((d) => d.layername === 'india_cities')
    expect(datasets.map((d) => d.layername)).toEqual(
      expect.arrayContaining(['india_states', 'india_cities', 'india_city_links']),
    )
    expect(cities).toMatchObject({ geometrytype: 'POINT', featureCount: 3502, local: true })
    expect(cities?.fields).toEqual(
      expect.arrayContaining([
        { name: 'name', type: 'string' },
        { name: 'population', type: 'number' },
      ]),
    )
    expect(datasets.every((d) => d.local === true)).toBe(true)
  })

  it('gives a local dataset as GeoJSON text for the map', async () => {
    const features = await value<{ name: string; geojson: string; featureCount: number }>(
      'datasets.features',
      { name: 'india_states' },
    )
    const parsed = JSON.parse(features.geojson) as {
      type: string
      features: Array<{ geometry: { type: string } }>
    }
    expect(features).toMatchObject({ name: 'india_states', featureCount: 37 })
    expect(parsed.type).toBe('FeatureCollection')
    expect(parsed.features).toHaveLength(37)
    expect(parsed.features.every((f) => /Polygon$/.test(f.geometry.type))).toBe(true)
  })

  it('says which dataset is unknown', async () => {
    const failure = await error('datasets.features', { name: 'no_such_dataset' })
    expect(failure).toMatchObject({ failureClass: 'not-found' })
    expect(failure.message).toContain('no_such_dataset')
  })
})

describe('a join run', () => {
  it('returns the rows of an Intersects join with a drawn polygon, with the columns they came from', async () => {
    const progress: string[] = []
    const off = core.events.subscribe((name, payload) => {
      const p = payload as { runId: string; phase: string }
      if (name === 'job.progress' && p.runId === 'mumbai-1') progress.push(p.phase)
    })
    const run = await value<JoinRun>('gis.join', { runId: 'mumbai-1', params: intersects, body: mumbai })
    off()
    expect(run.runId).toBe('mumbai-1')
    expect(run.partial).toBe(false)
    expect(run.status).toBe(200)
    expect(run.columns).toEqual([
      { prop: 'prop1', table: 'source', name: 'name' },
      { prop: 'prop2', table: 'source', name: 'population' },
      { prop: 'prop3', table: 'source', name: 'geom' },
    ])
    const names = rowsOf(run).map((r) => r.prop1)
    expect(names).toContain('Mumbai')
    expect(names).not.toContain('Delhi')
    for (const row of rowsOf(run)) {
      expect(row.prop2).toMatch(/^\d+$/)
      expect(row.prop3).toMatch(/^POINT \(7[23]\.\d+ 1[89]\.\d+\)$/)
    }
    expect(progress[0]).toBe('queued')
    expect(progress).toContain('waiting')
    expect(progress.at(-1)).toBe('done')
  })

  it('refuses DWithin without a distance, naming distance, and sends nothing', async () => {
    const before = await joinRequestsSent()
    const failure = await error('gis.join', {
      runId: 'no-distance',
      params: { ...intersects, operator: 'DWithin' },
      body: mumbai,
    })
    expect(failure).toMatchObject({ failureClass: 'validation', field: 'distance' })
    expect(failure.message).toMatch(/distance: is required when operator is DWithin/)
    expect(await joinRequestsSent()).toBe(before)
    const { runs } = await value<{ runs: RunSummary[] }>('runs.list', {})
    expect(runs[0]).toMatchObject({ id: 'no-distance', failureClass: 'validation', hasResult: false })
  })

  it('saves the result as a new dataset that the panel then lists, and refuses the same name again', async () => {
    events.length = 0
    const params = { ...intersects, saveAsNewDataset: true, newDatasetNme: 'mumbai_cities' }
    const run = await value<JoinRun>('gis.join', { runId: 'save-1', params, body: mumbai })
    expect(run.savedDataset).toBe('mumbai_cities')
    expect(events).toContainEqual({ name: 'datasets.changed', payload: { reason: 'saved mumbai_cities' } })
    const { datasets } = await value<{ datasets: Array<{ layername: string; featureCount?: number }> }>(
      'gis.layers',
      {},
    )
    expect(datasets.find((d) => d.layername === 'mumbai_cities')?.featureCount).toBe(run.rowCount)

    events.length = 0
    const conflict = await error('gis.join', { runId: 'save-2', params, body: mumbai })
    expect(conflict).toMatchObject({ failureClass: 'conflict', field: 'newDatasetNme', status: 409 })
    expect(conflict.message).toContain('mumbai_cities')
    expect(events.filter((e) => e.name === 'datasets.changed')).toEqual([])
    const again = await value<{ datasets: Array<{ layername: string; featureCount?: number }> }>(
      'gis.layers',
      {},
    )
    expect(again.datasets.filter((d) => d.layername === 'mumbai_cities')).toHaveLength(1)
    expect(again.datasets.find((d) => d.layername === 'mumbai_cities')?.featureCount).toBe(run.rowCount)
  })

  it('records every run, newest first, and reopens a kept result', async () => {
    const { runs } = await value<{ runs: RunSummary[] }>('runs.list', {})
    expect(runs.slice(0, 4).map((r) => r.id)).toEqual(['save-2', 'save-1', 'no-distance', 'mumbai-1'])
    expect(runs[0]).toMatchObject({ failureClass: 'conflict', status: 409, hasResult: false })
    expect(runs[3]).toMatchObject({ status: 200, profile: 'Local', hasResult: true, params: intersects })
    expect(runs[3]?.body).toEqual(mumbai)
    const reopened = await value<{ run: RunSummary; result?: JoinRun }>('runs.get', { id: 'mumbai-1' })
    expect(reopened.result?.rowCount).toBe(runs[3]?.rowCount)
    expect(rowsOf(reopened.result!).map((r) => r.prop1)).toContain('Mumbai')
    expect(await error('runs.get', { id: 'never-ran' })).toMatchObject({ failureClass: 'not-found' })
  })
})

function pointsGeoJson(count: number): string {
  // Deterministic points over lon 68–97, lat 8–37 (a simple LCG).
  let seed = 42
  const next = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32
  const features: string[] = []
  for (let i = 0; i < count; i++) {
    const lon = (68 + next() * 29).toFixed(5)
    const lat = (8 + next() * 29).toFixed(5)
    features.push(
      `{"type":"Feature","properties":{"n":${i}},"geometry":{"type":"Point","coordinates":[${lon},${lat}]}}`,
    )
  }
  return `{"type":"FeatureCollection","features":[${features.join(',')}]}`
}

/** A small circle with very many vertices: DWithin against it is slow enough to cancel. */
function denseCircle(vertices: number) {
  const ring: Array<[number, number]> = []
  for (let i = 0; i < vertices; i++) {
    const a = (2 * Math.PI * i) / vertices
    ring.push([80 + Math.cos(a), 22 + Math.sin(a)])
  }
  ring.push(ring[0] as [number, number])
  return {
    type: 'FeatureCollection',
    features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [ring] } }],
  }
}

/** DWithin 2,000 km of a 20,000-vertex circle over 200,000 points: long enough to cancel. */
const longJoin = {
  queryType: 'spatialOperation',
  datasetSource: 'many_points',
  operator: 'DWithin',
  distance: 2_000_000,
  sourceProperty: 'geom',
  userGeom: true,
}

/** Run a long join and cancel it once it has been waiting for a while (at least one heartbeat). */
async function runAndCancel(runId: string, params: Record<string, unknown>) {
  const phases: Array<{ phase: string; elapsedMs: number }> = []
  let cancelled: Promise<unknown> | undefined
  const off = core.events.subscribe((name, payload) => {
    const p = payload as { runId: string; phase: string; elapsedMs: number }
    if (name !== 'job.progress' || p.runId !== runId) return
    phases.push(p)
    if (p.phase === 'waiting' && p.elapsedMs >= 400) cancelled ??= core.call('gis.cancelJoin', { runId })
  })
  try {
    const failure = await error('gis.join', { runId, params, body: denseCircle(20_000) })
    return { failure, phases, cancelled: await cancelled }
  } finally {
    off()
  }
}

describe('importing and cancelling', () => {
  it('imports a 200,000-point file and lists it; a second import under the same name is a conflict', async () => {
    events.length = 0
    const imported = await value<Record<string, unknown>>('datasets.import', {
      file: await offer(pointsGeoJson(200_000), 'many_points.geojson'),
    })
    expect(imported).toMatchObject({ layername: 'many_points', featureCount: 200_000, local: true })
    expect(events).toContainEqual({ name: 'datasets.changed', payload: { reason: 'imported many_points' } })
    const conflict = await error('datasets.import', {
      file: await offer(pointsGeoJson(3), 'many_points.geojson'),
    })
    expect(conflict).toMatchObject({ failureClass: 'conflict', field: 'name' })
    const { datasets } = await value<{ datasets: Array<{ layername: string; featureCount?: number }> }>(
      'gis.layers',
      {},
    )
    expect(datasets.find((d) => d.layername === 'many_points')?.featureCount).toBe(200_000)
  }, 120_000)

  it('refuses a file with invalid features, saying skipping is possible, and imports the rest with skipInvalid', async () => {
    const text = JSON.stringify({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: { n: 1 }, geometry: { type: 'Point', coordinates: [77, 28] } },
        { type: 'Feature', properties: { n: 2 }, geometry: { type: 'Point', coordinates: [77, 128] } },
      ],
    })
    const refused = await error('datasets.import', { file: await offer(text, 'half_bad.geojson') })
    expect(refused).toMatchObject({ failureClass: 'validation', code: 'invalid-features' })
    expect(refused.message).toMatch(/feature 1: .*latitude 128 is outside/)
    const imported = await value<Record<string, unknown>>('datasets.import', {
      file: await offer(text, 'half_bad.geojson'),
      skipInvalid: true,
    })
    expect(imported).toMatchObject({ layername: 'half_bad', featureCount: 1, skippedInvalid: 1, local: true })
  }, 60_000)

  it('cancels a long join mid-run: the run ends cancelled, is recorded, and the service keeps answering', async () => {
    const { failure, phases, cancelled } = await runAndCancel('long-1', longJoin)
    expect(cancelled).toEqual({ ok: true, value: { cancelled: true } })
    expect(failure).toMatchObject({ failureClass: 'timeout-network', code: 'cancelled' })
    expect(failure.message).toMatch(/cancelled/)
    expect(phases.filter((p) => p.phase === 'waiting').length).toBeGreaterThan(1)
    expect(phases.at(-1)?.phase).toBe('cancelled')
    expect(await value('gis.cancelJoin', { runId: 'long-1' })).toEqual({ cancelled: false })
    const { runs } = await value<{ runs: RunSummary[] }>('runs.list', {})
    expect(runs[0]).toMatchObject({ id: 'long-1', failureClass: 'timeout-network', hasResult: false })
    const after = await value<JoinRun>('gis.join', {
      runId: 'after-cancel',
      params: intersects,
      body: mumbai,
    })
    expect(rowsOf(after).map((r) => r.prop1)).toContain('Mumbai')
  }, 120_000)

  it('cancelling a join that saves a dataset says the outcome is unknown, then checks the dataset list', async () => {
    const { failure, cancelled } = await runAndCancel('long-save', {
      ...longJoin,
      saveAsNewDataset: true,
      newDatasetNme: 'near_circle',
    })
    expect(cancelled).toEqual({ ok: true, value: { cancelled: true } })
    expect(failure).toMatchObject({
      failureClass: 'unknown-outcome',
      code: 'cancelled',
      retry: 'reconcile-first',
    })
    expect(failure.message).toMatch(/cancelled after [\d.]+ s, outcome unknown for near_circle/)
    expect(failure.message).toMatch(/near_circle is not in the dataset list yet/)
    const { datasets } = await value<{ datasets: Array<{ layername: string }> }>('gis.layers', {})
    expect(datasets.map((d) => d.layername)).not.toContain('near_circle')
    const { runs } = await value<{ runs: RunSummary[] }>('runs.list', {})
    expect(runs[0]).toMatchObject({ id: 'long-save', failureClass: 'unknown-outcome' })
  }, 120_000)
})
