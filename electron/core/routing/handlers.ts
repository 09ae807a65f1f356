import { classifyStatus, importFileProblem, NETWORK_IMPORT_EXTENSIONS, type Result } from '../../contract'
import type { MatrixResponse } from '../../contract/routing/matrix'
import { networkInfoSchema, routingOperations, type NetworkInfo } from '../../contract/routing/operations'
import type { CoreContext, HandlerRegistry } from '../area'
import { localServiceCall } from '../local-service-call'
import { geoFailureOf } from '../gis/join-runs'
import { GeoFailure } from '../../base/geo-failure'

function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw geoFailureOf(result.error)
  return result.value
}

/** The local extensions of a §2.3 answer (the cloud sends neither; the schema keeps unknown members). */
function localExtras(response: MatrixResponse): { network: string | null; snapped: unknown[] } {
  const extra = response as MatrixResponse & { network?: unknown; snappedPositions?: unknown }
  return {
    network: typeof extra.network === 'string' ? extra.network : null,
    snapped: Array.isArray(extra.snappedPositions) ? extra.snappedPositions : [],
  }
}

/**
 * Distance matrices and predictive runs on the active profile (cloud or local alike, through the client),
 * and the local workspace's road networks (list, import with progress and cancel, remove) through the
 * built-in local service.
 */
export function registerRoutingHandlers(registry: HandlerRegistry, core: CoreContext): void {
  const local = localServiceCall(core.localService)
  const imports = new Map<string, AbortController>()

  registry.add(routingOperations, {
    'routing.matrix': async (request) => {
      const started = performance.now()
      // The Local profile's service starts on first use.
      await core.readyProfile()
      const count = request.positions.length
      const sources = request.sources ?? [0]
      const destinations = request.destinations ?? request.positions.map((_, i) => i)
      const response = unwrap(
        await core.client.routing.matrix({
          resources: request.resources,
          profile: request.profile,
          geopositions: request.positions.join(';'),
          ...(request.sources ? { sources: request.sources.join(';') } : {}),
          ...(request.destinations ? { destinations: request.destinations.join(';') } : {}),
          ...(request.rtype !== undefined ? { rtype: request.rtype } : {}),
        }),
      )
      const { network, snapped } = localExtras(response)
      const blank = () => sources.map(() => destinations.map(() => null))
      return {
        code: response.results.code,
        distances: response.results.distances ?? blank(),
        durations: response.results.durations ?? blank(),
        network,
        snapped: snapped.length === count ? (snapped as never) : [],
        sources,
        destinations,
        durationMs: performance.now() - started,
      }
    },

    'routing.predictive': async ({ coordinates, departures }) => {
      await core.readyProfile()
      const results = []
      let network: string | null = null
      let model: boolean | null = null
      for (const departure of departures) {
        const response = unwrap(
          await core.client.routing.predictive({ coordinates: coordinates.join(';'), dep_time: departure }),
        )
        const extra = response as MatrixResponse & { network?: unknown; speedModel?: unknown }
        if (typeof extra.network === 'string') network = extra.network
        if (extra.speedModel === 'model' || extra.speedModel === 'imported')
          model = extra.speedModel === 'model'
        results.push({
          departure,
          code: response.results.code,
          distance: response.results.distances?.[0]?.[0] ?? null,
          duration: response.results.durations?.[0]?.[0] ?? null,
        })
      }
      return { results, network, model }
    },

    'routing.networks': async () => {
      const response = await local('routing.networks', '/local/road-networks')
      const body = (await response.json()) as {
        networks: unknown[]
        speedModel: { name: string; model: boolean }
      }
      return {
        networks: body.networks.map((n) => networkInfoSchema.parse(n)),
        speedModel: { name: body.speedModel.name, model: body.speedModel.model },
      }
    },

    'routing.importNetwork': async ({ importId, file, name, timeZone }) => {
      const importFiles = core.ports.importFiles
      if (!importFiles) {
        throw new GeoFailure(
          'local-configuration',
          'routing.importNetwork: this host takes no files for import; use geo-analyst routing import FILE',
        )
      }
      const source = await importFiles.take(file)
      const fileName = source.fileName
      const problem = importFileProblem(fileName, source.size, NETWORK_IMPORT_EXTENSIONS)
      if (problem) {
        await source.release()
        throw new GeoFailure('validation', `routing.importNetwork: ${problem}`, { field: 'file' })
      }
      const controller = new AbortController()
      imports.set(importId, controller)
      const progress = (phase: string, fraction: number) =>
        core.events.emit('routing.importProgress', { importId, phase, fraction })
      try {
        progress('uploading', 0)
        const response = await local('routing.importNetwork', '/local/road-networks/import', {
          method: 'POST',
          body: JSON.stringify({
            path: source.path,
            name: name ?? fileName,
            ...(timeZone ? { timeZone } : {}),
          }),
          signal: controller.signal,
        })
        let result: NetworkInfo | undefined
        let failure: { status: number; message: string; field?: string } | undefined
        const decoder = new TextDecoder()
        let rest = ''
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          rest += decoder.decode(chunk, { stream: true })
          let nl: number
          while ((nl = rest.indexOf('\n')) >= 0) {
            const line = JSON.parse(rest.slice(0, nl)) as {
              progress?: { phase: string; fraction: number }
              network?: unknown
              error?: { status: number; message: string; field?: string }
            }
            rest = rest.slice(nl + 1)
            if (line.progress) progress(line.progress.phase, line.progress.fraction)
            if (line.network) result = networkInfoSchema.parse(line.network)
            if (line.error) failure = line.error
          }
        }
        if (failure)
          throw new GeoFailure(
            classifyStatus(failure.status) ?? 'validation',
            `routing.importNetwork: ${failure.message}`,
            {
              field: failure.field ?? 'file',
            },
          )
        if (!result)
          throw new GeoFailure('unknown-outcome', 'routing.importNetwork: the import ended without a result')
        progress('done', 1)
        return result
      } catch (error) {
        if ((error as Error).name === 'AbortError') {
          progress('cancelled', 0)
          throw new GeoFailure('validation', `routing.importNetwork: the import of ${fileName} was cancelled`)
        }
        throw error
      } finally {
        imports.delete(importId)
        await source.release()
      }
    },

    'routing.cancelImport': async ({ importId }) => {
      const controller = imports.get(importId)
      controller?.abort()
      return { cancelled: controller !== undefined }
    },

    'routing.removeNetwork': async ({ id }) => {
      await local('routing.removeNetwork', `/local/road-networks/${encodeURIComponent(id)}`, {
        method: 'DELETE',
      })
      return { removed: id }
    },
  })
}
