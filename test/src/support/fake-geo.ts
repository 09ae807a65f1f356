/**
 * A scripted stand-in for the host behind `src/bridge.ts` (the renderer's one seam): it validates requests
 * with the real contract schemas, keeps profiles and a "keychain" in memory, emits the contract's events,
 * and can be told to fail the next call of an operation.
 */
import { vi } from 'vitest'
import {
  DEFAULT_PREFERENCES,
  LOCAL_PROFILE,
  CREDENTIAL_NAMES,
  fail,
  ok,
  operations,
  validationFailure,
  type EventName,
  type EventPayload,
  type GeoApi,
  type GeoError,
  type GeoEventsApi,
  type GeoFilesApi,
  type OperationName,
  type Result,
  type Dataset,
  type Project,
  type RunSummary,
  type SecretsStatus,
  type SettingsView,
} from '@contract/index'
import { createFakeFleet, type FakeFleetState } from './fake-fleet'
import { withRows } from '../../support/join-rows'

interface FeatureCollectionLike {
  type: 'FeatureCollection'
  features: unknown[]
}

type Listener = (payload: unknown) => void

export interface FakeGeo {
  geo: GeoApi
  geoEvents: GeoEventsApi
  /** Files offered for import get a reference, as the hosts answer; `offered` holds them by it. */
  geoFiles: GeoFilesApi & { offerForImport: ReturnType<typeof vi.fn> }
  offered: Map<string, File>
  /** Values as the host's keychain holds them, by "profile/name". */
  keychain: Map<string, string>
  state: {
    view: SettingsView
    store: SecretsStatus['store']
    warning?: string
    datasets: Dataset[]
    /** GeoJSON text per local dataset, for datasets.features. */
    features: Map<string, string>
    drawings: FeatureCollectionLike
    runs: RunSummary[]
    /** Saved projects by name, and the last one opened or saved. */
    projects: Map<string, Project>
    lastProject: string | null
  }
  /** The scripted fleet behind the fleet.* operations. */
  fleet: FakeFleetState
  failNext(name: OperationName, error: GeoError): void
  /** Script one operation's answers for a test (the request is validated by the contract first). */
  respond<K extends OperationName>(
    name: K,
    handler: (request: never) => Result<unknown> | Promise<Result<unknown>>,
  ): void
  emit<K extends EventName>(name: K, payload: EventPayload<K>): void
  reset(): void
}

export function createFakeGeo(): FakeGeo {
  const keychain = new Map<string, string>()
  const updatedAt = new Map<string, string>()
  const failures = new Map<OperationName, GeoError>()
  const listeners = new Map<EventName, Set<Listener>>()
  const initialView = (): SettingsView => ({
    activeProfile: LOCAL_PROFILE,
    profiles: [{ name: LOCAL_PROFILE, builtIn: true, urls: null }],
    preferences: structuredClone(DEFAULT_PREFERENCES),
  })
  const initialState = (): FakeGeo['state'] => ({
    view: initialView(),
    store: 'keychain',
    datasets: [],
    features: new Map(),
    drawings: { type: 'FeatureCollection', features: [] },
    runs: [],
    projects: new Map(),
    lastProject: null,
  })
  const state: FakeGeo['state'] = initialState()
  const savedPlaces: Array<{
    eLoc: string
    placeName: string
    placeAddress: string
    latitude: number
    longitude: number
    type: string
    userName: string
    created: string
  }> = []
  const scripted = new Map<OperationName, (request: never) => Result<unknown> | Promise<Result<unknown>>>()
  const offered = new Map<string, File>()

  const status = (profile: string): SecretsStatus => ({
    profile,
    store: state.store,
    ...(state.warning ? { warning: state.warning } : {}),
    credentials: CREDENTIAL_NAMES.map((name) => {
      const when = updatedAt.get(`${profile}/${name}`)
      return { name, set: keychain.has(`${profile}/${name}`), ...(when ? { updatedAt: when } : {}) }
    }),
  })

  const fleet = createFakeFleet((ref) => offered.get(ref)?.name ?? ref)
  type Fake = (request: never) => Result<unknown> | Promise<Result<unknown>>
  // Optional per operation, so a new area typechecks before it scripts its fakes (a call without one throws).
  const handlers: { [K in OperationName]?: Fake } = {
    'places.standardize': () => ok({ found: false }),
    'places.autosuggest': () =>
      ok({ suggestedLocations: [], userAddedLocation: [], suggestedSearches: [], lang: 'en' as const }),
    'places.geocode': ({ jobId }: { jobId: string }) =>
      ok({ jobId, total: 0, matched: 0, byLevel: {}, cancelled: false }),
    'places.cancelGeocode': () => ok({ cancelled: false }),
    'places.listSaved': () => ok({ places: savedPlaces }),
    'places.savePlace': (place: { placeName: string; latitude: number; longitude: number }) => {
      const saved = {
        eLoc: `FAKE${String(savedPlaces.length).padStart(4, '0')}`,
        placeAddress: '',
        type: 'POI',
        userName: 'test',
        created: '2026-01-01T00:00:00.000Z',
        ...place,
      }
      savedPlaces.unshift(saved)
      return ok(saved)
    },
    'places.deleteSaved': ({ eLoc }: { eLoc: string }) => {
      const at = savedPlaces.findIndex((p) => p.eLoc === eLoc)
      if (at < 0) return fail('not-found', `No saved place with eLoc ${eLoc}`)
      return ok(savedPlaces.splice(at, 1)[0]!)
    },
    'app.info': () =>
      ok({ name: 'Geo Analyst', version: '0.0.0-test', host: 'web', platform: 'test', configDir: '/tmp/x' }),
    'settings.get': () => ok(state.view),
    'settings.chooseProfile': ({ name }: { name: string }) => {
      if (!state.view.profiles.some((p) => p.name === name))
        return fail('not-found', `no profile named "${name}"`)
      state.view = { ...state.view, activeProfile: name }
      return ok(state.view)
    },
    'settings.saveProfile': ({
      name,
      urls,
      caCertificate,
    }: {
      name: string
      urls: never
      caCertificate?: string
    }) => {
      if (name === LOCAL_PROFILE)
        return fail('validation', 'the built-in Local profile cannot be changed', { field: 'name' })
      const others = state.view.profiles.filter((p) => p.name !== name)
      const saved = { name, builtIn: false, urls, ...(caCertificate ? { caCertificate } : {}) }
      state.view = { ...state.view, profiles: [...others, saved] }
      return ok(state.view)
    },
    'settings.deleteProfile': ({ name }: { name: string }) => {
      state.view = {
        ...state.view,
        profiles: state.view.profiles.filter((p) => p.name !== name),
        activeProfile: state.view.activeProfile === name ? LOCAL_PROFILE : state.view.activeProfile,
      }
      return ok(state.view)
    },
    'settings.savePreferences': (preferences: never) => {
      state.view = { ...state.view, preferences }
      return ok(state.view)
    },
    'secrets.status': ({ profile }: { profile?: string }) => ok(status(profile ?? state.view.activeProfile)),
    'secrets.set': ({ profile, name, value }: { profile?: string; name: string; value: string }) => {
      const owner = profile ?? state.view.activeProfile
      keychain.set(`${owner}/${name}`, value)
      updatedAt.set(`${owner}/${name}`, '2026-11-22T10:15:00.000Z')
      return ok(status(owner))
    },
    'secrets.clear': ({ profile, name }: { profile?: string; name: string }) => {
      const owner = profile ?? state.view.activeProfile
      keychain.delete(`${owner}/${name}`)
      updatedAt.delete(`${owner}/${name}`)
      return ok(status(owner))
    },
    'gis.layers': () => ok({ datasets: state.datasets }),
    'gis.previewJoin': () =>
      ok({
        method: 'POST',
        url: 'http://127.0.0.1:1/mgis/query_apply/join',
        query: [],
        headers: [['Authorization', 'Bearer [REDACTED]']],
        curl: "curl -X POST 'http://127.0.0.1:1/mgis/query_apply/join' -H 'Authorization: Bearer [REDACTED]'",
        cli: 'geo-analyst call gis.join',
      }),
    'gis.join': ({ runId }: { runId: string }) =>
      ok({ runId, ...withRows([]), partial: false, durationMs: 1 }),
    'gis.cancelJoin': () => ok({ cancelled: true }),
    'datasets.features': ({ name }: { name: string }) => {
      const geojson = state.features.get(name)
      if (geojson === undefined) return fail('not-found', `no local dataset named "${name}"`)
      return ok({
        name,
        geojson,
        featureCount: (JSON.parse(geojson) as FeatureCollectionLike).features.length,
      })
    },
    'datasets.import': ({ file }: { file: string }) => {
      const offeredFile = offered.get(file)
      if (!offeredFile) return fail('not-found', 'no file offered under this reference', { field: 'file' })
      offered.delete(file)
      const dataset: Dataset = { layername: offeredFile.name.replace(/\.[^.]*$/, ''), local: true }
      state.datasets = [...state.datasets, dataset]
      return ok(dataset)
    },
    'drawings.load': () => ok({ collection: state.drawings }),
    'drawings.save': ({ collection }: { collection: FeatureCollectionLike }) => {
      state.drawings = collection
      return ok({ savedAt: '2026-11-22T10:15:00.000Z' })
    },
    'runs.list': () => ok({ runs: state.runs }),
    'runs.get': ({ id }: { id: string }) => {
      const run = state.runs.find((r) => r.id === id)
      return run ? ok({ run }) : fail('not-found', `no run ${id}`)
    },
    'export.save': ({ suggestedName }: { suggestedName: string }) => ok({ path: `/tmp/${suggestedName}` }),
    'project.list': () =>
      ok({
        projects: [...state.projects].map(([name, project]) => ({
          name,
          savedAt: project.savedAt,
          bytes: JSON.stringify(project).length,
        })),
        last: state.lastProject,
      }),
    'project.save': ({ name, project }: { name: string; project: Project }) => {
      state.projects.set(name, project)
      state.lastProject = name
      return ok({ name, savedAt: project.savedAt, bytes: JSON.stringify(project).length })
    },
    'project.open': ({ name }: { name: string }) => {
      const project = state.projects.get(name)
      if (!project) return fail('not-found', `There is no project named ${name}.`, { field: 'name' })
      state.lastProject = name
      return ok({ name, project })
    },
    'project.last': () => {
      const name = state.lastProject
      const project = name ? state.projects.get(name) : undefined
      return ok(project && name ? { name, project } : { name: null })
    },
    ...fakeRouting(),
    ...fleet.handlers,
    // the image comes back as sent, with one region listed
    'vision.blur': ({ fileName, imageBase64 }: { fileName: string; imageBase64: string }) =>
      ok({
        contentType: fileName.toLowerCase().endsWith('.png') ? 'image/png' : 'image/jpeg',
        imageBase64,
        boxes: [{ x: 1, y: 2, w: 3, h: 4 }],
      }),
    'vision.blurFile': ({ inputPath, outputPath }: { inputPath: string; outputPath: string }) =>
      ok({ inputPath, outputPath, contentType: 'image/jpeg', boxes: null }),
  }

  const geo = Object.fromEntries(
    (Object.keys(operations) as OperationName[]).map((name) => [
      name,
      vi.fn(async (request: unknown) => {
        const planned = failures.get(name)
        if (planned) {
          failures.delete(name)
          return { ok: false, error: planned }
        }
        const parsed = operations[name].request.safeParse(request)
        if (!parsed.success) return validationFailure(parsed.error)
        const handler = scripted.get(name) ?? handlers[name]
        if (!handler) throw new Error(`fake-geo: no answer for ${name}; script one with fake.respond`)
        return handler(parsed.data as never)
      }),
    ]),
  ) as unknown as GeoApi

  const geoFiles = {
    offerForImport: vi.fn(async (file: File) => {
      const ref = `ref-${String(offered.size + 1).padStart(16, '0')}`
      offered.set(ref, file)
      return ok({ file: ref, fileName: file.name, size: file.size })
    }),
  }

  const geoEvents: GeoEventsApi = {
    on(name, listener) {
      const set = listeners.get(name) ?? new Set<Listener>()
      set.add(listener as Listener)
      listeners.set(name, set)
      return () => set.delete(listener as Listener)
    },
  }

  return {
    geo,
    geoEvents,
    geoFiles,
    offered,
    keychain,
    state,
    fleet: fleet.state,
    failNext: (name, error) => failures.set(name, error),
    respond: (name, handler) => void scripted.set(name, handler),
    emit: (name, payload) => listeners.get(name)?.forEach((listener) => listener(payload)),
    reset() {
      keychain.clear()
      updatedAt.clear()
      failures.clear()
      listeners.clear()
      scripted.clear()
      offered.clear()
      geoFiles.offerForImport.mockClear()
      Object.assign(state, initialState())
      fleet.reset()
      delete state.warning
      for (const fn of Object.values(geo)) (fn as ReturnType<typeof vi.fn>).mockClear()
    },
  }
}

/**
 * Routing as a fake provider answers it: distances 1.3 × the straight line, 10 m/s, every position placed
 * where it is; the peak hour (18:00 UTC) takes 1.5 × as long in predictive runs.
 */
function fakeRouting() {
  const parse = (p: string) => p.split(',').map(Number) as [number, number]
  const metres = (a: [number, number], b: [number, number]) => {
    const k = Math.PI / 180
    const x = (b[0] - a[0]) * k * Math.cos(((a[1] + b[1]) / 2) * k)
    const y = (b[1] - a[1]) * k
    return Math.round(Math.hypot(x, y) * 6371008.8 * 1.3 * 10) / 10
  }
  const network = {
    id: 'gothenburg-sample',
    name: 'Sample network: Gothenburg',
    attribution: 'OpenStreetMap contributors, ODbL',
    source: 'geojson-path-finder',
    built: '2016-12-27T10:04:02Z',
    timeZone: 'Europe/Stockholm',
    bbox: [11.86, 57.648, 12.094, 57.762] as [number, number, number, number],
    counts: { nodes: 31508, edges: 44071, coords: 156757, ways: 18912 },
    bundled: true,
    bytes: 3245000,
  }
  return {
    'routing.matrix': (request: { positions: string[]; sources?: number[]; destinations?: number[] }) => {
      const points = request.positions.map(parse)
      const sources = request.sources ?? [0]
      const destinations = request.destinations ?? points.map((_, i) => i)
      const distances = sources.map((s) => destinations.map((d) => metres(points[s]!, points[d]!)))
      return ok({
        code: 'Ok',
        distances,
        durations: distances.map((row) => row.map((m) => Math.round(m) / 10)),
        network: network.id,
        snapped: points.map(([lon, lat]) => ({ lon, lat, distance: 0 })),
        sources,
        destinations,
        durationMs: 5,
      })
    },
    'routing.predictive': (request: { coordinates: string[]; departures: number[] }) => {
      const points = request.coordinates.map(parse)
      let total = 0
      for (let i = 1; i < points.length; i++) total += metres(points[i - 1]!, points[i]!)
      return ok({
        results: request.departures.map((departure) => ({
          departure,
          code: 'Ok',
          distance: total,
          duration: (total / 10) * (new Date(departure * 1000).getUTCHours() === 18 ? 1.5 : 1),
        })),
        network: network.id,
        model: true,
      })
    },
    'routing.networks': () =>
      ok({ networks: [network], speedModel: { name: 'Default speed model', model: true } }),
    'routing.importNetwork': ({ fileName }: { fileName: string }) =>
      ok({ ...network, id: fileName.replace(/\..*$/, ''), name: fileName, bundled: false }),
    'routing.cancelImport': () => ok({ cancelled: false }),
    'routing.removeNetwork': ({ id }: { id: string }) => ok({ removed: id }),
  }
}
