import { issuesFailure } from '../../contract/common/issues'
import { validateJoinRequest } from '../../contract/gis/join-params'
import { gisOperations } from '../../contract/gis/operations'
import type { CoreContext, HandlerRegistry } from '../area'
import { GeoFailure } from '../../base/geo-failure'
import { DrawingsStore } from '../workspace/drawings-store'
import type { LocalWorkspacePort } from '../../base/local-workspace-port'
import { RunHistory } from '../workspace/run-history'
import { datasetFromLayer } from './datasets'
import { httpWorkspacePort } from './http-workspace-port'
import { fetchTile } from './tiles'
import { joinPreview } from './join-preview'
import { geoFailureOf, JoinRuns } from './join-runs'
import { rowsTapOf } from './join-result'
import { IMPORT_MAX_BYTES, formatBytes, type Result } from '../../contract'

/**
 * How joins are sent: one attempt may take minutes (a join over a big dataset), answers may be large,
 * and a read-only join is tried at most twice. Cancel stays immediate through the run's AbortController.
 */
export const JOIN_TRANSPORT = {
  retry: { attemptTimeoutMs: 10 * 60_000, totalBudgetMs: 10 * 60_000, maxAttempts: 2 },
  maxResponseBytes: 512 * 1024 * 1024,
} as const

function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw geoFailureOf(result.error)
  return result.value
}

/** The analyst's loop: datasets, joins, drawings and run history. */
export function registerGisHandlers(registry: HandlerRegistry, core: CoreContext): void {
  const ports = core.ports
  const joinClient = core.clientWith(JOIN_TRANSPORT)
  const runs = new RunHistory(core.dataDir, core.redactor)
  const gis = {
    redactor: core.redactor,
    readyProfile: core.readyProfile,
    client: core.client,
    runs,
    drawings: new DrawingsStore(core.dataDir),
    joinRuns: new JoinRuns({
      send: (params, body, { signal, tap }) =>
        joinClient.gis.join(params, body, { signal, ...(tap ? { rows: rowsTapOf(tap) } : {}) }),
      events: core.events,
      history: runs,
      profile: async () => (await core.settings.activeProfile()).name,
    }),
    localWorkspace: ports.localWorkspace ?? httpWorkspacePort(core.localService),
    importFiles: ports.importFiles,
  }
  const events = core.events

  async function localWorkspace(what: string): Promise<LocalWorkspacePort> {
    const profile = await gis.readyProfile()
    if (!profile.builtIn) {
      throw new GeoFailure(
        'local-configuration',
        `${what}: only datasets of the built-in Local profile can be ${what === 'datasets.features' ? 'shown on the map' : 'used here'}; the active profile is "${profile.name}"`,
      )
    }
    return gis.localWorkspace
  }

  registry.add(gisOperations, {
    'gis.layers': async () => {
      const profile = await gis.readyProfile()
      const list = unwrap(await gis.client.gis.layers())
      return {
        datasets: list.layers.map((layer) => datasetFromLayer(layer, profile.builtIn, list.tiles === true)),
      }
    },
    'gis.tile': async (request) => {
      await localWorkspace('gis.tile')
      return fetchTile(core.localService, request)
    },
    'gis.previewJoin': async ({ params, body }) => {
      const checked = validateJoinRequest(params, body)
      if (!checked.ok) throw geoFailureOf(issuesFailure('gis.previewJoin', checked.issues).error)
      await gis.readyProfile()
      const built = unwrap(await gis.client.gis.describeJoin(params, body))
      return joinPreview(built, params, body !== undefined, gis.redactor)
    },
    'gis.join': async (request, context) => {
      await gis.readyProfile()
      return gis.joinRuns.run(request, context?.tap)
    },
    'gis.cancelJoin': async ({ runId }) => ({ cancelled: gis.joinRuns.cancel(runId) }),
    'datasets.features': async ({ name }) => (await localWorkspace('datasets.features')).features(name),
    'datasets.import': async ({ file, name, skipInvalid }) => {
      if (!gis.importFiles) {
        throw new GeoFailure(
          'local-configuration',
          'datasets.import: this host takes no files for import; use geo-analyst import FILE',
        )
      }
      const source = await gis.importFiles.take(file)
      try {
        const port = await localWorkspace('datasets.import')
        const problem =
          source.size === 0
            ? 'is empty'
            : source.size > IMPORT_MAX_BYTES
              ? `is larger than the ${formatBytes(IMPORT_MAX_BYTES)} the app imports; use geo-analyst import for big files`
              : null
        if (problem) {
          throw new GeoFailure('validation', `datasets.import: ${source.fileName} ${problem}`, {
            field: 'file',
          })
        }
        const info = await port.importPath({
          path: source.path,
          fileName: source.fileName,
          ...(name ? { name } : {}),
          ...(skipInvalid === undefined ? {} : { skipInvalid }),
        })
        events.emit('datasets.changed', { reason: `imported ${info.layername}` })
        return { ...info, local: true }
      } finally {
        await source.release()
      }
    },
    'drawings.load': () => gis.drawings.load(),
    'drawings.save': ({ collection }) => gis.drawings.save(collection),
    'runs.list': async () => ({ runs: await gis.runs.list() }),
    'runs.get': async ({ id }) => {
      const found = await gis.runs.get(id)
      if (!found)
        throw new GeoFailure('not-found', `runs.get: no run with id ${id.slice(0, 80)}`, { field: 'id' })
      return found
    },
  })
}
