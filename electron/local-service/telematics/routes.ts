import { promises as fs } from 'node:fs'
import path from 'node:path'
import { formatBytes, TRACK_IMPORT_MAX_BYTES } from '../../contract/limits'
import {
  checkFields,
  describeIssues,
  issue,
  type RawParams,
  type RequestIssue,
} from '../../contract/common/issues'
import { integerValue, numberValue } from '../../contract/common/values'
import { ALARM_TYPE_IDS, validateAlarm } from '../../contract/telematics/alarm'
import {
  DEVICES_COLUMNS_EXTENSION,
  DEVICES_COLUMNS_FORM,
  DEVICES_FORM_PARAM,
  LOCAL_EXTENSIONS_HEADER,
  validateDevices,
  validateHardware,
} from '../../contract/telematics/devices'
import { fleetConfigureSchema, MAX_REPLAY_SPEED } from '../../contract/telematics/fleet'
import { HttpError } from '../http-util'
import { DatabaseWorkspaceError } from '../postgis/errors'
import { BEARER, type Reply, type Route, type RouteRequest } from '../router'
import type { LocalArea } from '../service-context'
import { readTrack, TrackFileError, trackFormat } from './engine/track-file'
import { DeviceLists } from './device-list'
import { FleetError, FleetService } from './fleet-service'

/** 400 naming every wrong field (the spec's "bad request"; not 422, whatever the kind of problem). */
function badRequest(issues: readonly RequestIssue[]): Reply {
  return {
    status: 400,
    body: {
      code: '400',
      success: false,
      message: describeIssues(issues, 20),
      field: issues[0]?.field,
      issues,
    },
  }
}

function refusal(error: FleetError): Reply {
  return {
    status: error.status,
    body: {
      code: String(error.status),
      success: false,
      message: error.message,
      ...(error.field ? { field: error.field } : {}),
      ...(error.status === 203 ? { data: [] } : {}),
    },
  }
}

/** The text of a track file on this machine (the host that took it for import names its path). */
async function readTrackText(file: string, fileName: string): Promise<string> {
  let size: number
  try {
    size = (await fs.stat(file)).size
  } catch {
    throw new FleetError(404, `path: ${fileName} does not exist`, 'path')
  }
  if (size > TRACK_IMPORT_MAX_BYTES)
    throw new FleetError(
      413,
      `path: ${fileName} is larger than the ${formatBytes(TRACK_IMPORT_MAX_BYTES)} a track may have`,
      'path',
    )
  if (size === 0) throw new FleetError(400, `path: ${fileName} is empty`, 'path')
  return fs.readFile(file, 'utf8')
}

async function answer(work: () => Promise<Reply | void>): Promise<Reply | void> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof FleetError) return refusal(error)
    if (error instanceof TrackFileError) return badRequest([issue('path', 'invalid', error.message)])
    // The PostGIS workspace that keeps the alarm configurations failed: its problem in plain words.
    if (error instanceof DatabaseWorkspaceError)
      return {
        status: 500,
        body: { code: `database-${error.problem}`, success: false, message: error.message },
      }
    throw error
  }
}

/** An Idempotency-Key: 1–255 visible ASCII characters (RFC draft "The Idempotency-Key HTTP Header Field"). */
function idempotencyKey(request: RouteRequest): string | undefined {
  const raw = request.req.headers['idempotency-key']
  if (raw === undefined) return undefined
  const key = Array.isArray(raw) ? raw[0]! : raw
  if (!/^[\x21-\x7e]{1,255}$/.test(key))
    throw new HttpError(400, 'Idempotency-Key: must be 1 to 255 visible ASCII characters', {
      field: 'Idempotency-Key',
    })
  return key
}

const alertsShapes = {
  since: numberValue('must be a timestamp (unix seconds, a non-negative number)', (n) => n >= 0),
  deviceId: integerValue('must be a device id (a non-negative integer)', (n) => n >= 0),
  alarmType: integerValue(`must be one of the §2.8 ids: ${ALARM_TYPE_IDS.join(', ')}`, (n) =>
    ALARM_TYPE_IDS.includes(n),
  ),
  limit: integerValue('must be an integer from 1 to 5000', (n) => n >= 1 && n <= 5000),
}

/** `state` may come in milliseconds (a value above 10^11); the service's times are unix seconds. */
const seconds = (value: number | undefined) =>
  value !== undefined && value > 1e11 ? Math.floor(value / 1000) : value

function query(request: RouteRequest): RawParams {
  return request.query
}

/**
 * The telematics area of the local service: §4.7 live devices, §4.8 alarm creation, §4.9 hardware, over a
 * simulated fleet on the workspace's road network and replayed tracks; and its local extensions (alarm
 * list, alert history, the fleet's settings, geofences and tracks).
 */
export const telematicsArea: LocalArea = {
  name: 'telematics',
  start(ctx) {
    const service = new FleetService(ctx)
    const lists = new DeviceLists()
    const routes: Route[] = [
      {
        method: 'GET',
        path: '/telematics/devices',
        auth: BEARER,
        body: 'none',
        handle: (request) =>
          answer(async () => {
            // `form=columns`: the local extension this service advertises (see DEVICES_COLUMNS_EXTENSION).
            const params = new URLSearchParams(request.query)
            const forms = params.getAll(DEVICES_FORM_PARAM)
            params.delete(DEVICES_FORM_PARAM)
            const form = forms[0]
            if (forms.length > 1 || (form !== undefined && form !== DEVICES_COLUMNS_FORM))
              return badRequest([
                issue(
                  DEVICES_FORM_PARAM,
                  'invalid',
                  `must be ${DEVICES_COLUMNS_FORM} (or absent for §2.6 records)`,
                ),
              ])
            const checked = validateDevices(params)
            if (!checked.ok) return badRequest(checked.issues)
            const p = checked.value
            const fleet = await service.fleet()
            if (p.id !== undefined && !fleet.device(p.id))
              return refusal(new FleetError(203, `device ${p.id} not found`, 'id'))
            const built = performance.now()
            const filter = { ...p, state: seconds(p.state) }
            const body = form === undefined ? lists.records(fleet, filter) : lists.columns(fleet, filter)
            const res = request.res
            if (res.headersSent || res.destroyed) return undefined
            res.writeHead(200, {
              'content-type': 'application/json; charset=utf-8',
              'content-length': body.byteLength,
              'cache-control': 'no-store',
              // Server-Timing: what building the list took here (the rest of a call is the network's).
              'server-timing': `list;dur=${(performance.now() - built).toFixed(2)}`,
              [LOCAL_EXTENSIONS_HEADER]: DEVICES_COLUMNS_EXTENSION,
            })
            res.end(body)
            return undefined
          }),
      },
      {
        method: 'GET',
        path: '/telematics/devices/hardwareinfo',
        auth: BEARER,
        body: 'none',
        handle: (request) =>
          answer(async () => {
            const checked = validateHardware(query(request))
            if (!checked.ok) return badRequest(checked.issues)
            const fleet = await service.fleet()
            const data = fleet.hardware(checked.value.id)
            if (checked.value.id !== undefined && data.length === 0) {
              request.res.writeHead(204, { 'cache-control': 'no-store' }).end()
              return
            }
            return { status: 200, body: { data } }
          }),
      },
      {
        method: 'POST',
        path: '/telematics/alarm',
        auth: BEARER,
        write: true,
        body: 'json-or-form',
        handle: (request) =>
          answer(async () => {
            const key = idempotencyKey(request)
            const body = request.body as Record<string, unknown> | undefined
            if (body === undefined)
              return badRequest([issue('body', 'missing', 'is required: the alarm configuration (§4.8)')])
            const fleet = await service.fleet()
            const checked = validateAlarm(body, { geofenceIds: fleet.geofences.ids })
            if (!checked.ok) return badRequest(checked.issues)
            const { alarm, replayed } = await service.createAlarm(
              { ...checked.value, severity: checked.value.severity ?? 0 },
              JSON.stringify(checked.value),
              key,
            )
            const { identity: _identity, createdAt: _createdAt, ...shown } = alarm
            void _identity
            void _createdAt
            return {
              status: 201,
              body: { code: '201', success: true, message: 'alarm configuration created', data: shown },
              headers: replayed ? { 'idempotent-replayed': 'true' } : {},
            }
          }),
      },
      {
        method: 'GET',
        path: '/telematics/alarm',
        auth: BEARER,
        body: 'none',
        handle: (request) =>
          answer(async () => {
            const { issues } = checkFields(query(request), {}, [], 'GET /telematics/alarm')
            if (issues.length) return badRequest(issues)
            await service.fleet()
            const data = (await service.alarms()).map(({ identity: _i, createdAt: _c, ...shown }) => shown)
            return { status: 200, body: { code: '200', success: true, data } }
          }),
      },
      {
        method: 'GET',
        path: '/telematics/alerts',
        auth: BEARER,
        body: 'none',
        handle: (request) =>
          answer(async () => {
            const { typed, issues } = checkFields(query(request), alertsShapes, [], 'GET /telematics/alerts')
            if (issues.length) return badRequest(issues)
            const fleet = await service.fleet()
            const data = fleet.alarms.alerts({
              since: seconds(typed.since as number | undefined),
              deviceId: typed.deviceId as number | undefined,
              alarmType: typed.alarmType as number | undefined,
              limit: (typed.limit as number | undefined) ?? 500,
            })
            return { status: 200, body: { code: '200', success: true, serverTime: fleet.step, data } }
          }),
      },
      // The fleet's own settings: local extensions for the app (bearer token like every telematics path).
      {
        method: 'GET',
        path: '/telematics/local/fleet',
        auth: BEARER,
        body: 'none',
        handle: () => answer(async () => ({ status: 200, body: await service.status() })),
      },
      {
        method: 'PUT',
        path: '/telematics/local/fleet',
        auth: BEARER,
        write: true,
        body: 'json',
        handle: (request) =>
          answer(async () => {
            const parsed = fleetConfigureSchema.safeParse(request.body ?? {})
            if (!parsed.success)
              return badRequest(
                parsed.error.issues.map((i) => issue(i.path.join('.') || 'body', 'invalid', i.message)),
              )
            return { status: 200, body: await service.configure(parsed.data) }
          }),
      },
      {
        method: 'POST',
        path: '/telematics/local/fleet/zones',
        auth: BEARER,
        write: true,
        body: 'none',
        handle: () => answer(async () => ({ status: 200, body: await service.createZones() })),
      },
      {
        method: 'GET',
        path: '/telematics/local/geofences',
        auth: BEARER,
        body: 'none',
        handle: () =>
          answer(async () => {
            const fleet = await service.fleet()
            const settings = await service.settings()
            return {
              status: 200,
              body: {
                dataset: fleet.geofences.fences.length ? settings.geofenceDataset : null,
                features: fleet.geofences.fences.map((f) => ({
                  type: 'Feature',
                  id: f.id,
                  properties: { name: f.name },
                  geometry: f.geometry,
                })),
              },
            }
          }),
      },
      {
        method: 'POST',
        path: '/telematics/local/tracks',
        auth: BEARER,
        write: true,
        body: 'json',
        handle: (request) =>
          answer(async () => {
            const body = (request.body ?? {}) as Record<string, unknown>
            const issues: RequestIssue[] = []
            const file = typeof body.path === 'string' ? body.path : ''
            const fileName =
              typeof body.fileName === 'string' && body.fileName ? body.fileName : path.basename(file)
            const speed = body.speed === undefined ? 1 : Number(body.speed)
            if (!file) issues.push(issue('path', 'missing', 'is required: the track file to import'))
            else if (!trackFormat(fileName, ''))
              issues.push(
                issue(
                  'path',
                  'invalid',
                  `${fileName} is not a track this service reads (.gpx, .csv, .geojson)`,
                ),
              )
            if (!(speed >= 1 && speed <= MAX_REPLAY_SPEED))
              issues.push(
                issue('speed', 'invalid', `must be from 1 to ${MAX_REPLAY_SPEED} (times real time)`),
              )
            if (body.name !== undefined && (typeof body.name !== 'string' || !body.name.trim()))
              issues.push(issue('name', 'invalid', 'must be a non-empty text'))
            if (issues.length) return badRequest(issues)
            const content = await readTrackText(file, fileName)
            const points = readTrack(fileName, content)
            const device = await service.importTrack(points, fileName, body.name as string | undefined, speed)
            return { status: 201, body: device.info() }
          }),
      },
      {
        method: 'PUT',
        path: '/telematics/local/tracks/:id',
        auth: BEARER,
        write: true,
        body: 'json',
        handle: (request) =>
          answer(async () => {
            const body = (request.body ?? {}) as Record<string, unknown>
            const issues: RequestIssue[] = []
            for (const flag of ['playing', 'restart'] as const)
              if (body[flag] !== undefined && typeof body[flag] !== 'boolean')
                issues.push(issue(flag, 'invalid', 'must be true or false'))
            if (
              body.speed !== undefined &&
              !(typeof body.speed === 'number' && body.speed >= 1 && body.speed <= MAX_REPLAY_SPEED)
            )
              issues.push(
                issue('speed', 'invalid', `must be from 1 to ${MAX_REPLAY_SPEED} (times real time)`),
              )
            if (issues.length) return badRequest(issues)
            const device = await service.controlTrack(request.params.id!, {
              playing: body.playing as boolean | undefined,
              speed: body.speed as number | undefined,
              restart: body.restart as boolean | undefined,
            })
            return { status: 200, body: device.info() }
          }),
      },
      {
        method: 'DELETE',
        path: '/telematics/local/tracks/:id',
        auth: BEARER,
        write: true,
        body: 'none',
        handle: (request) =>
          answer(async () => {
            await service.removeTrack(request.params.id!)
            return { status: 200, body: { removed: request.params.id } }
          }),
      },
    ]
    return { routes, close: () => service.close() }
  },
}
