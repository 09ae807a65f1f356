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
  type OperationName,
  type Result,
  type Dataset,
  type RunSummary,
  type SecretsStatus,
  type SettingsView,
} from '@contract/index'

interface FeatureCollectionLike {
  type: 'FeatureCollection'
  features: unknown[]
}

type Listener = (payload: unknown) => void

export interface FakeGeo {
  geo: GeoApi
  geoEvents: GeoEventsApi
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
  }
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
  })
  const state: FakeGeo['state'] = initialState()
  const scripted = new Map<OperationName, (request: never) => Result<unknown> | Promise<Result<unknown>>>()

  const status = (profile: string): SecretsStatus => ({
    profile,
    store: state.store,
    ...(state.warning ? { warning: state.warning } : {}),
    credentials: CREDENTIAL_NAMES.map((name) => {
      const when = updatedAt.get(`${profile}/${name}`)
      return { name, set: keychain.has(`${profile}/${name}`), ...(when ? { updatedAt: when } : {}) }
    }),
  })

  const handlers: { [K in OperationName]: (request: never) => Result<unknown> | Promise<Result<unknown>> } = {
    'app.info': () =>
      ok({ name: 'Geo Analyst', version: '0.0.0-test', host: 'web', platform: 'test', configDir: '/tmp/x' }),
    'settings.get': () => ok(state.view),
    'settings.chooseProfile': ({ name }: { name: string }) => {
      if (!state.view.profiles.some((p) => p.name === name))
        return fail('not-found', `no profile named "${name}"`)
      state.view = { ...state.view, activeProfile: name }
      return ok(state.view)
    },
    'settings.saveProfile': ({ name, urls }: { name: string; urls: never }) => {
      if (name === LOCAL_PROFILE)
        return fail('validation', 'the built-in Local profile cannot be changed', { field: 'name' })
      const others = state.view.profiles.filter((p) => p.name !== name)
      state.view = { ...state.view, profiles: [...others, { name, builtIn: false, urls }] }
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
    'gis.join': ({ runId }: { runId: string }) => ok({ runId, rows: [], partial: false, durationMs: 1 }),
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
    'datasets.import': ({ fileName }: { fileName: string }) => {
      const dataset: Dataset = { layername: fileName.replace(/\.[^.]*$/, ''), local: true }
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
        return (scripted.get(name) ?? handlers[name])(parsed.data as never)
      }),
    ]),
  ) as unknown as GeoApi

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
    keychain,
    state,
    failNext: (name, error) => failures.set(name, error),
    respond: (name, handler) => void scripted.set(name, handler),
    emit: (name, payload) => listeners.get(name)?.forEach((listener) => listener(payload)),
    reset() {
      keychain.clear()
      updatedAt.clear()
      failures.clear()
      listeners.clear()
      scripted.clear()
      Object.assign(state, initialState())
      delete state.warning
      for (const fn of Object.values(geo)) (fn as ReturnType<typeof vi.fn>).mockClear()
    },
  }
}
