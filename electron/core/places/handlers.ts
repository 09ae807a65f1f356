import type { Result } from '../../contract'
import { NEW_DATASET_NAME_MESSAGE, NEW_DATASET_NAME_RULE } from '../../contract/gis/join-params'
import { placesOperations, type GeocodeRequest, type GeocodeSummary } from '../../contract/places/operations'
import type { CoreContext, HandlerRegistry } from '../area'
import { GeoFailure } from '../../base/geo-failure'
import { geoFailureOf } from '../gis/join-runs'
import { httpWorkspacePort } from '../gis/http-workspace-port'
import { geocodeRecords, recordsOf } from './geocode'
import { httpPlacesPort } from './http-places-port'

function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw geoFailureOf(result.error)
  return result.value
}

/** Progress events at most this often per job. */
const PROGRESS_EVERY_MS = 150

/** Search, standardization, batch geocoding and My places. */
export function registerPlacesHandlers(registry: HandlerRegistry, core: CoreContext): void {
  const myPlaces = httpPlacesPort(core.localService)
  const workspace = httpWorkspacePort(core.localService)
  const jobs = new Map<string, AbortController>()

  async function recordsFor(source: GeocodeRequest['source']): Promise<Record<string, string>[]> {
    if (source.kind === 'rows') return recordsOf(source.fields, source.rows)
    const found = await workspace.features(source.name)
    const collection = JSON.parse(found.geojson) as {
      features: Array<{ properties?: Record<string, unknown> }>
    }
    return collection.features.map((f) =>
      Object.fromEntries(
        Object.entries(f.properties ?? {}).map(([k, v]) => [
          k,
          v === null || v === undefined ? '' : String(v),
        ]),
      ),
    )
  }

  async function geocode(request: GeocodeRequest): Promise<GeocodeSummary> {
    const { jobId, column, saveAs } = request
    if (jobs.has(jobId)) throw new GeoFailure('conflict', `places.geocode: job ${jobId} is already running`)
    if (saveAs !== undefined && !NEW_DATASET_NAME_RULE.test(saveAs))
      throw new GeoFailure('validation', `places.geocode: saveAs: ${NEW_DATASET_NAME_MESSAGE}`, {
        field: 'saveAs',
      })
    const fields = request.source.kind === 'rows' ? request.source.fields : undefined
    if (fields && !fields.includes(column))
      throw new GeoFailure(
        'validation',
        `places.geocode: column: no column "${column}"; the columns are ${fields.join(', ')}`,
        {
          field: 'column',
        },
      )
    if (saveAs !== undefined) {
      const taken = await workspace.features(saveAs).then(
        () => true,
        () => false,
      )
      if (taken)
        throw new GeoFailure(
          'conflict',
          `places.geocode: a dataset named "${saveAs}" exists; choose another name`,
          {
            field: 'saveAs',
          },
        )
    }
    await core.readyProfile()
    const records = await recordsFor(request.source)
    if (request.source.kind === 'dataset' && records.length && !(column in records[0]!))
      throw new GeoFailure('validation', `places.geocode: column: the dataset has no field "${column}"`, {
        field: 'column',
      })
    const controller = new AbortController()
    jobs.set(jobId, controller)
    const total = records.length
    let last = 0
    const progress = (
      done: number,
      matched: number,
      phase: 'geocoding' | 'saving' | 'done' | 'cancelled' | 'failed',
    ) => core.events.emit('places.geocodeProgress', { jobId, done, total, matched, phase })
    try {
      progress(0, 0, 'geocoding')
      const result = await geocodeRecords(
        records,
        column,
        {
          standardize: (address, signal) => core.client.places.standardize({ address }, { signal }),
          suggest: (query, signal) => core.client.places.autosuggest({ query }, { signal }),
        },
        {
          signal: controller.signal,
          onProgress: (done, matched) => {
            const now = Date.now()
            if (now - last >= PROGRESS_EVERY_MS || done === total) {
              last = now
              progress(done, matched, 'geocoding')
            }
          },
        },
      ).catch((error: unknown) => {
        if (controller.signal.aborted) return null
        throw error
      })
      if (!result) {
        progress(0, 0, 'cancelled')
        return { jobId, total, matched: 0, byLevel: {}, cancelled: true }
      }
      const geojson = JSON.stringify({ type: 'FeatureCollection', features: result.features })
      const summary: GeocodeSummary = {
        jobId,
        total,
        matched: result.matched,
        byLevel: result.byLevel,
        cancelled: false,
        ...(request.returnGeojson ? { geojson } : {}),
      }
      if (saveAs !== undefined) {
        progress(total, result.matched, 'saving')
        const info = await workspace.importFile({
          fileName: `${saveAs}.geojson`,
          bytes: new TextEncoder().encode(geojson),
          name: saveAs,
        })
        summary.dataset = { ...info, local: true }
        core.events.emit('datasets.changed', { reason: `geocoded ${saveAs}` })
      }
      progress(total, result.matched, 'done')
      return summary
    } catch (error) {
      progress(0, 0, 'failed')
      throw error
    } finally {
      jobs.delete(jobId)
    }
  }

  registry.add(placesOperations, {
    'places.standardize': async ({ address, bias }) => {
      await core.readyProfile()
      return unwrap(
        await core.client.places.standardize({ address, ...(bias !== undefined ? { bias } : {}) }),
      )
    },
    'places.autosuggest': async (request) => {
      await core.readyProfile()
      return unwrap(await core.client.places.autosuggest(request))
    },
    'places.geocode': (request) => geocode(request),
    'places.cancelGeocode': async ({ jobId }) => {
      const job = jobs.get(jobId)
      job?.abort()
      return { cancelled: !!job }
    },
    'places.listSaved': () => myPlaces.list(),
    'places.savePlace': (place) => myPlaces.save(place),
    'places.deleteSaved': ({ eLoc }) => myPlaces.remove(eLoc),
  })
}
