import {
  importFileProblem,
  TRACK_IMPORT_EXTENSIONS,
  TRACK_IMPORT_MAX_BYTES,
  type Profile,
  type Result,
} from '../../contract'
import type { DevicesResponse } from '../../contract/telematics/devices'
import {
  alarmConfigurationSchema,
  fleetStatusSchema,
  geofencesSchema,
  replayTrackSchema,
  type AlertEntry,
  emptyDeviceColumns,
  type DeviceColumns,
  type DevicesColumnsResponse,
  type FleetStatus,
} from '../../contract/telematics/fleet'
import { telematicsOperations } from '../../contract/telematics/operations'
import type { CoreContext, HandlerRegistry } from '../area'
import { toCli } from '../http/copy-as-command'
import { requestPreview } from '../gis/join-preview'
import { geoFailureOf } from '../gis/join-runs'
import { GeoFailure } from '../../base/geo-failure'
import { localServiceCall } from '../local-service-call'

function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw geoFailureOf(result.error)
  return result.value
}

type Loose = Record<string, unknown>
const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v)
    ? v
    : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))
      ? Number(v)
      : undefined
const text = (v: unknown): string =>
  typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v)

/** §2.6 records as the map's and list's columns (one array per field). */
export function deviceColumns(records: readonly Loose[]): DeviceColumns {
  const columns = emptyDeviceColumns()
  for (const r of records) {
    const location = (r.location ?? {}) as Loose
    const details = (r.deviceDetails ?? {}) as Loose
    const lat = num(location.latitude)
    const lon = num(location.longitude)
    const located = lat !== undefined && lon !== undefined && !(lat === 0 && lon === 0)
    columns.id.push(num(r.id) ?? -1)
    columns.lon.push(located ? lon : null)
    columns.lat.push(located ? lat : null)
    columns.heading.push(num(location.heading) ?? 0)
    columns.speed.push(num(location.speedKph) ?? 0)
    // A record without a status says nothing about its communication: "no data" (§3 value 5).
    columns.status.push(num(r.status) ?? 5)
    columns.time.push(num(location.gprsTime) ?? num(location.gpsTime) ?? 0)
    columns.active.push(r.active !== false && r.active !== 'false')
    columns.deviceType.push(text(details.deviceType))
    columns.name.push(text(details.name))
    columns.registrationNumber.push(text(details.registrationNumber))
  }
  return columns
}

/** The latest alert of each record newer than `since`, newest first (a service without alert history). */
function alertsOfRecords(records: readonly Loose[], since: number): AlertEntry[] {
  const out: AlertEntry[] = []
  for (const r of records) {
    const a = r.alerts as Loose | undefined
    const t = num(a?.timestamp)
    const type = num(a?.alarmType)
    if (!a || t === undefined || type === undefined || t <= since) continue
    out.push({ ...a, deviceId: num(a.deviceId) ?? num(r.id) ?? -1, timestamp: t, alarmType: type })
  }
  return out.sort((x, y) => y.timestamp - x.timestamp)
}

function cloudStatus(): FleetStatus {
  return {
    source: 'cloud',
    simulated: false,
    vehicles: 0,
    seed: 0,
    network: null,
    networks: [],
    geofenceDataset: null,
    geofences: 0,
    tracks: [],
    serverTime: Math.floor(Date.now() / 1000),
    preparing: false,
  }
}

/**
 * The fleet: live devices, hardware, alarm configurations and alerts on the active profile (cloud or the
 * local service alike, through the client), and the local service's own fleet — the simulation's settings,
 * the geofence layer, replayed tracks — through its extensions.
 */
export function registerTelematicsHandlers(registry: HandlerRegistry, core: CoreContext): void {
  const local = localServiceCall(core.localService)
  /** Profiles whose service has no alert history (the cloud): their alerts come from the device records. */
  const noAlertHistory = new Set<string>()

  /** The Local profile, for what only the built-in local service does. */
  async function localProfile(operation: string): Promise<Profile> {
    const profile = await core.readyProfile()
    if (!profile.builtIn)
      throw new GeoFailure(
        'local-configuration',
        `${operation}: the simulated fleet, geofence layer and replays belong to the built-in Local profile; the active profile is "${profile.name}"`,
      )
    return profile
  }

  async function localJson(operation: string, pathname: string, init: RequestInit = {}): Promise<unknown> {
    await localProfile(operation)
    return (await local(operation, pathname, init)).json()
  }

  registry.add(telematicsOperations, {
    'telematics.poll': async ({ state, includeInActive, alertsSince }) => {
      const profile = await core.readyProfile()
      // The local service's columns when it advertises them (no §2.6 records to read), else §2.6 records.
      const list = unwrap(
        await core.client.telematics.deviceList({
          ...(state !== undefined ? { state } : {}),
          ...(includeInActive ? { includeInActive } : {}),
        }),
      )
      const response = list.response as (DevicesResponse | DevicesColumnsResponse) & { serverTime?: unknown }
      const records = list.form === 'records' ? (list.response.data as Loose[]) : []
      const devices = list.form === 'columns' ? list.response.devices : deviceColumns(records)
      // The local service says its clock; elsewhere the newest record received is the next `state`.
      const newest = devices.time.reduce((max, t) => Math.max(max, t), state ?? 0)
      const serverTime = num(response.serverTime) ?? (newest > 0 ? newest : Math.floor(Date.now() / 1000))
      let alerts: AlertEntry[] = []
      let alertHistory = !noAlertHistory.has(profile.name)
      if (alertsSince !== undefined && alertHistory) {
        const listed = await core.client.telematics.alerts({ since: alertsSince })
        if (listed.ok) alerts = listed.value.data
        else if (listed.error.failureClass === 'not-found' || listed.error.status === 405) {
          noAlertHistory.add(profile.name)
          alertHistory = false
        } else throw geoFailureOf(listed.error)
      }
      if (alertsSince !== undefined && !alertHistory) alerts = alertsOfRecords(records, alertsSince)
      return { serverTime, full: state === undefined, devices, alerts, alertHistory }
    },

    'telematics.device': async ({ id }) => {
      await core.readyProfile()
      const found = unwrap(await core.client.telematics.devices({ id }))
      const record = found.data.find((d) => num(d.id) === id) ?? found.data[0]
      if (!record)
        throw new GeoFailure('not-found', `telematics.device: device ${id} not found`, { field: 'id' })
      const hardware = await core.client.telematics.hardware({})
      const mapped = hardware.ok
        ? (hardware.value.data.find(
            (h) =>
              Array.isArray(h.mappedDeviceIds) && (h.mappedDeviceIds as unknown[]).some((m) => num(m) === id),
          ) ?? null)
        : null
      return { device: { ...record, id: num(record.id) ?? id }, hardware: mapped }
    },

    'telematics.hardware': async ({ id }) => {
      await core.readyProfile()
      return unwrap(await core.client.telematics.hardware(id === undefined ? {} : { id }))
    },

    'telematics.status': async () => {
      const profile = await core.readyProfile()
      if (!profile.builtIn) return cloudStatus()
      return fleetStatusSchema.parse(await localJson('telematics.status', '/telematics/local/fleet'))
    },

    'telematics.configure': async (change) =>
      fleetStatusSchema.parse(
        await localJson('telematics.configure', '/telematics/local/fleet', {
          method: 'PUT',
          body: JSON.stringify(change),
        }),
      ),

    'telematics.createZones': async () =>
      fleetStatusSchema.parse(
        await localJson('telematics.createZones', '/telematics/local/fleet/zones', { method: 'POST' }),
      ),

    'telematics.geofences': async () => {
      const profile = await core.readyProfile()
      if (!profile.builtIn) return { dataset: null, features: [] }
      return geofencesSchema.parse(await localJson('telematics.geofences', '/telematics/local/geofences'))
    },

    'telematics.previewAlarm': async ({ fields, contentType, idempotencyKey }) => {
      await core.readyProfile()
      const built = unwrap(
        await core.client.telematics.describeAlarm(fields, {
          ...(contentType ? { contentType } : {}),
          ...(idempotencyKey ? { idempotencyKey } : {}),
        }),
      )
      const cli = toCli(
        'telematics.alarm',
        { ...fields, ...(contentType && contentType !== 'json' ? { contentType } : {}) },
        core.redactor,
      )
      return requestPreview(built, cli, core.redactor)
    },

    'telematics.createAlarm': async ({ fields, contentType, idempotencyKey, confirm }) => {
      await core.readyProfile()
      const created = unwrap(
        await core.client.telematics.createAlarm(fields, {
          ...(contentType ? { contentType } : {}),
          ...(idempotencyKey ? { idempotencyKey } : {}),
          confirm: confirm === true,
        }),
      )
      // The local service answers {data: configuration}; another provider's body shape is not specified.
      const body = created.response as Loose | null
      const candidate = body && typeof body === 'object' && 'data' in body ? body.data : body
      const parsed = alarmConfigurationSchema.safeParse(candidate)
      return {
        configuration: parsed.success ? parsed.data : null,
        status: created.status,
        fingerprint: created.fingerprint,
        ...(created.reconciled ? { reconciled: created.reconciled } : {}),
        ...(created.replayed ? { replayed: true } : {}),
      }
    },

    'telematics.alarms': async () => {
      await core.readyProfile()
      const listed = await core.client.telematics.alarms()
      if (listed.ok) return { configurations: listed.value, supported: true }
      if (listed.error.failureClass === 'not-found' || listed.error.status === 405)
        return { configurations: [], supported: false }
      throw geoFailureOf(listed.error)
    },

    'telematics.alerts': async ({ since, deviceId, limit }) => {
      await core.readyProfile()
      const listed = unwrap(
        await core.client.telematics.alerts({
          ...(since !== undefined ? { since } : {}),
          ...(deviceId !== undefined ? { deviceId } : {}),
          ...(limit !== undefined ? { limit } : {}),
        }),
      )
      return { alerts: listed.data }
    },

    'telematics.importTrack': async ({ file, name, speed }) => {
      await localProfile('telematics.importTrack')
      const importFiles = core.ports.importFiles
      if (!importFiles)
        throw new GeoFailure(
          'local-configuration',
          'telematics.importTrack: this host takes no files for import; use geo-analyst telematics replay FILE',
        )
      const source = await importFiles.take(file)
      try {
        const problem =
          importFileProblem(source.fileName, source.size, TRACK_IMPORT_EXTENSIONS) ??
          (source.size > TRACK_IMPORT_MAX_BYTES
            ? `${source.fileName} is larger than the ${TRACK_IMPORT_MAX_BYTES / 1048576} MiB a track may have`
            : null)
        if (problem)
          throw new GeoFailure('validation', `telematics.importTrack: ${problem}`, { field: 'file' })
        const track = await local('telematics.importTrack', '/telematics/local/tracks', {
          method: 'POST',
          body: JSON.stringify({
            path: source.path,
            fileName: source.fileName,
            ...(name ? { name } : {}),
            ...(speed !== undefined ? { speed } : {}),
          }),
        })
        return replayTrackSchema.parse(await track.json())
      } finally {
        await source.release()
      }
    },

    'telematics.controlTrack': async ({ id, ...change }) =>
      replayTrackSchema.parse(
        await localJson('telematics.controlTrack', `/telematics/local/tracks/${encodeURIComponent(id)}`, {
          method: 'PUT',
          body: JSON.stringify(change),
        }),
      ),

    'telematics.removeTrack': async ({ id }) => {
      await localJson('telematics.removeTrack', `/telematics/local/tracks/${encodeURIComponent(id)}`, {
        method: 'DELETE',
      })
      return { removed: id }
    },
  })
}
