import type { z } from 'zod'
import {
  IMPORT_MAX_BYTES,
  LOCAL_PROFILE,
  formatBytes,
  type AppInfo,
  type OperationName,
  type OperationResponse,
  type Operations,
  type Profile,
  type Result,
} from '../contract'
import { issuesFailure } from '../contract/common/issues'
import { validateJoinRequest } from '../contract/gis/join-params'
import type { Client } from './client/create-client'
import type { EventBus } from './events'
import type { SaveDialogPort } from './export/save-dialog-port'
import { GeoFailure } from './geo-failure'
import type { Redactor } from './http/redactor'
import { datasetFromLayer } from './loop/datasets'
import { joinPreview } from './loop/join-preview'
import { geoFailureOf, type JoinRuns } from './loop/join-runs'
import type { Credentials } from './secrets/credentials'
import type { SettingsStore } from './settings/settings-store'
import type { DrawingsStore } from './workspace/drawings-store'
import type { ImportFiles } from './workspace/import-files'
import type { LocalWorkspacePort } from './workspace/local-workspace-port'
import type { RunHistory } from './workspace/run-history'

/** What the analyst's loop needs: the client, the join runs, the stores under the data dir, the host's ports. */
export interface LoopServices {
  redactor: Redactor
  /** The active profile, with the built-in local service started first when it is the Local one. */
  readyProfile(): Promise<Profile>
  /** The client over the active profile (reads: dataset list). */
  client: Client
  joinRuns: JoinRuns
  runs: RunHistory
  drawings: DrawingsStore
  /** The local workspace; absent when the host has none. */
  localWorkspace?: LocalWorkspacePort
  /** Files offered for import (desktop grants, browser uploads); absent when the host takes none. */
  importFiles?: ImportFiles
  /** The desktop save dialog; only the Electron host has one. */
  saveDialog?: SaveDialogPort
}

export interface CoreServices {
  settings: SettingsStore
  credentials: Credentials
  events: EventBus
  info: () => AppInfo
  loop: LoopServices
}

function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw geoFailureOf(result.error)
  return result.value
}

/** A handler receives the already-validated request and returns the response or throws a GeoFailure. */
export type Handlers = {
  [K in OperationName]: (request: z.output<Operations[K]['request']>) => Promise<OperationResponse<K>>
}

/** The handlers of every operation in the table, over the core services. Hosts only register these. */
export function createHandlers(services: CoreServices): Handlers {
  const { settings, credentials, events, loop } = services

  async function localWorkspace(what: string): Promise<LocalWorkspacePort> {
    const profile = await loop.readyProfile()
    if (!profile.builtIn) {
      throw new GeoFailure(
        'local-configuration',
        `${what}: only datasets of the built-in Local profile can be ${what === 'datasets.features' ? 'shown on the map' : 'used here'}; the active profile is "${profile.name}"`,
      )
    }
    if (!loop.localWorkspace) {
      throw new GeoFailure('local-configuration', `${what}: this host has no local workspace`)
    }
    return loop.localWorkspace
  }

  async function profileOrActive(name: string | undefined): Promise<string> {
    if (name) return (await settings.profile(name)).name
    return (await settings.view()).activeProfile
  }

  async function settingsChanged<T extends Awaited<ReturnType<SettingsStore['view']>>>(view: T): Promise<T> {
    events.emit('settings.changed', view)
    return view
  }

  return {
    'app.info': async () => services.info(),
    'settings.get': () => settings.view(),
    'settings.chooseProfile': async ({ name }) => settingsChanged(await settings.chooseProfile(name)),
    'settings.saveProfile': async ({ name, urls }) => settingsChanged(await settings.saveProfile(name, urls)),
    'settings.deleteProfile': async ({ name }) => {
      const view = await settings.deleteProfile(name)
      if (name !== LOCAL_PROFILE) await credentials.clearProfile(name)
      return settingsChanged(view)
    },
    'settings.savePreferences': async (preferences) =>
      settingsChanged(await settings.savePreferences(preferences)),
    'secrets.status': async ({ profile }) => credentials.status(await profileOrActive(profile)),
    'secrets.set': async ({ profile, name, value }) => {
      const status = await credentials.set(await profileOrActive(profile), name, value)
      events.emit('secrets.changed', status)
      return status
    },
    'secrets.clear': async ({ profile, name }) => {
      const status = await credentials.clear(await profileOrActive(profile), name)
      events.emit('secrets.changed', status)
      return status
    },
    'gis.layers': async () => {
      const profile = await loop.readyProfile()
      const list = unwrap(await loop.client.gis.layers())
      return { datasets: list.layers.map((layer) => datasetFromLayer(layer, profile.builtIn)) }
    },
    'gis.previewJoin': async ({ params, body }) => {
      const checked = validateJoinRequest(params, body)
      if (!checked.ok) throw geoFailureOf(issuesFailure('gis.previewJoin', checked.issues).error)
      await loop.readyProfile()
      const built = unwrap(await loop.client.gis.describeJoin(params, body))
      return joinPreview(built, params, body !== undefined, loop.redactor)
    },
    'gis.join': async (request) => {
      await loop.readyProfile()
      return loop.joinRuns.run(request)
    },
    'gis.cancelJoin': async ({ runId }) => ({ cancelled: loop.joinRuns.cancel(runId) }),
    'datasets.features': async ({ name }) => (await localWorkspace('datasets.features')).features(name),
    'datasets.import': async ({ file, name, skipInvalid }) => {
      if (!loop.importFiles) {
        throw new GeoFailure(
          'local-configuration',
          'datasets.import: this host takes no files for import; use geo-analyst import FILE',
        )
      }
      const source = await loop.importFiles.take(file)
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
        const info = await port.importFile({
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
    'drawings.load': () => loop.drawings.load(),
    'drawings.save': ({ collection }) => loop.drawings.save(collection),
    'runs.list': async () => ({ runs: await loop.runs.list() }),
    'runs.get': async ({ id }) => {
      const found = await loop.runs.get(id)
      if (!found)
        throw new GeoFailure('not-found', `runs.get: no run with id ${id.slice(0, 80)}`, { field: 'id' })
      return found
    },
    'export.save': async (request) => {
      if (!loop.saveDialog) {
        throw new GeoFailure(
          'local-configuration',
          'The browser downloads exports; this host has no save dialog',
        )
      }
      return { path: await loop.saveDialog.save(request) }
    },
  }
}
