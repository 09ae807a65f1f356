import type { ServerResponse } from 'node:http'
import { performance } from 'node:perf_hooks'
import { describeIssues, primaryIssue, type RequestIssue } from '../../contract/common/issues'
import { validateAutosuggest } from '../../contract/places/autosuggest'
import { USER_ELOC, validateSavePlace } from '../../contract/places/my-places'
import { validateStandardize } from '../../contract/places/standardize'
import { errorBody, HttpError } from '../http-util'
import { BEARER, type Reply, type Route } from '../router'
import type { LocalArea } from '../service-context'
import { Gazetteer } from './data/gazetteer'
import { resolveGazetteerFile } from './data/resolve'
import { autosuggest, prepareAutosuggest } from './engine/autosuggest'
import { prepareStandardizer, standardize } from './engine/woodpecker'
import { MyPlacesError, MyPlacesStore } from './my-places'

/** How the gazetteer load went, for diagnostics (`GET /atlas/local/places/status`). */
export interface GazetteerStatus {
  file: string | null
  places: number
  loadMs: number
  prepareMs: number
  /** Heap and external memory grown while loading and preparing (indicative: other work runs meanwhile). */
  heldBytes: number
  error?: string
}

/** Every issue answers 400 here (spec §4.1, §4.2 declare 400 for bad input), naming the parameter. */
function badRequest(issues: readonly RequestIssue[]): Reply {
  const first = primaryIssue(issues)!
  return {
    status: 400,
    body: errorBody(400, describeIssues(issues), { field: first.field, issues }),
  }
}

function noContent(res: ServerResponse): void {
  if (res.headersSent || res.destroyed) return
  res.writeHead(204, { 'cache-control': 'no-store' })
  res.end()
}

/**
 * The places area (spec §4.1 address standardization, §4.2 autosuggest) over the offline gazetteer, and the
 * local extension for My places (`/atlas/local/places/saved`, bearer token like the rest of the group; the
 * cloud has no such paths). The gazetteer loads in the background when the service starts (the
 * decompression off the event loop); a request that comes before it is ready waits for it.
 */
export const placesArea: LocalArea = {
  name: 'places',
  start(ctx) {
    const file = resolveGazetteerFile()
    const status: GazetteerStatus = { file: file ?? null, places: 0, loadMs: 0, prepareMs: 0, heldBytes: 0 }
    const gazetteer: Promise<Gazetteer> = (async () => {
      if (!file) throw new Error('resources/data/places/gazetteer.bin was not found; run npm run data:places')
      const before = process.memoryUsage()
      const t0 = performance.now()
      const g = await Gazetteer.loadAsync(file)
      status.loadMs = performance.now() - t0
      const t1 = performance.now()
      prepareStandardizer(g)
      prepareAutosuggest(g)
      status.prepareMs = performance.now() - t1
      const after = process.memoryUsage()
      status.heldBytes = after.heapUsed + after.external - before.heapUsed - before.external
      status.places = g.size
      return g
    })()
    gazetteer.catch((error: unknown) => {
      status.error = error instanceof Error ? error.message : String(error)
    })
    const ready = async (): Promise<Gazetteer> => {
      try {
        return await gazetteer
      } catch {
        throw new HttpError(503, `the places gazetteer is not available: ${status.error ?? 'unknown error'}`)
      }
    }
    const myPlaces = new MyPlacesStore(ctx.workspaceDir)
    // Read the saved places once now, so the request thread has them for autosuggest.
    void myPlaces.list().catch(() => undefined)
    // Other areas (routing's eLoc positions) find places by eLoc: a saved place's, or the gazetteer's.
    ctx.shared.resolveEloc = async (eLoc) => {
      const code = eLoc.toUpperCase()
      const saved = (await myPlaces.list()).find((p) => p.eLoc.toUpperCase() === code)
      if (saved) return { lon: saved.longitude, lat: saved.latitude }
      const g = await ready()
      const row = g.byEloc(code)
      return row < 0 ? null : { lon: g.lon[row]! / 1e5, lat: g.lat[row]! / 1e5 }
    }

    const routes: Route[] = [
      {
        method: 'GET',
        path: '/atlas/api/places/woodpecker',
        auth: BEARER,
        body: 'none',
        handle: async ({ query, res }) => {
          const checked = validateStandardize(query)
          if (!checked.ok) return badRequest(checked.issues)
          const g = await ready()
          const result = standardize(g, checked.value.address, { bias: checked.value.bias })
          if (!result) return noContent(res)
          return { status: 200, body: result }
        },
      },
      {
        method: 'GET',
        path: '/atlas/api/places/search/json',
        auth: BEARER,
        body: 'none',
        handle: async ({ query, res }) => {
          const checked = validateAutosuggest(query)
          if (!checked.ok) return badRequest(checked.issues)
          const g = await ready()
          const result = autosuggest(g, checked.value, myPlaces.snapshot())
          if (!result) return noContent(res)
          return { status: 200, body: result }
        },
      },
      {
        method: 'GET',
        path: '/atlas/local/places/saved',
        auth: BEARER,
        body: 'none',
        handle: async () => ({
          status: 200,
          body: { places: await myPlaces.list(), notice: myPlaces.notice },
        }),
      },
      {
        method: 'POST',
        path: '/atlas/local/places/saved',
        auth: BEARER,
        write: true,
        body: 'json',
        handle: async ({ body }) => {
          if (!body || typeof body !== 'object' || Array.isArray(body))
            throw new HttpError(
              400,
              'body: a JSON object with placeName, latitude and longitude is required',
              {
                field: 'body',
              },
            )
          const checked = validateSavePlace(body as Record<string, unknown>)
          if (!checked.ok) return badRequest(checked.issues)
          try {
            return { status: 201, body: await myPlaces.add(checked.value) }
          } catch (error) {
            if (error instanceof MyPlacesError) throw new HttpError(409, error.message)
            throw error
          }
        },
      },
      {
        method: 'DELETE',
        path: '/atlas/local/places/saved/:eLoc',
        auth: BEARER,
        write: true,
        body: 'none',
        handle: async ({ params }) => {
          const eLoc = params.eLoc!.toUpperCase()
          if (!USER_ELOC.test(eLoc))
            throw new HttpError(400, 'eLoc: a saved place has an eight-character eLoc', { field: 'eLoc' })
          try {
            return { status: 200, body: await myPlaces.remove(eLoc) }
          } catch (error) {
            if (error instanceof MyPlacesError) throw new HttpError(404, error.message, { field: 'eLoc' })
            throw error
          }
        },
      },
      {
        method: 'GET',
        path: '/atlas/local/places/status',
        auth: BEARER,
        body: 'none',
        handle: async () => {
          await gazetteer.catch(() => undefined)
          return { status: 200, body: { ...status, meta: (await gazetteer.catch(() => null))?.meta ?? null } }
        },
      },
    ]
    return { routes }
  },
}
