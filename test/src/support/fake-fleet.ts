/**
 * The fleet operations as a small scripted fleet answers them (for `fake-geo.ts`): a few devices that move
 * a step per poll, two geofences, alarm configurations kept by Idempotency-Key, alerts a test adds, and
 * replayed tracks. Requests arrive validated by the contract's schemas; alarms by the shared validator.
 */
import { fail, ok, type OperationName, type Result } from '@contract/index'
import { validateAlarm } from '@contract/telematics/alarm'
import type {
  AlarmConfiguration,
  AlertEntry,
  FleetPoll,
  FleetStatus,
  ReplayTrack,
} from '@contract/telematics/fleet'

export interface FakeDevice {
  id: number
  name: string
  deviceType: string
  status: number
  lon: number
  lat: number
  heading: number
  speed: number
  time: number
  /** Not reporting: listed only when the poll asks for inactive devices too (§4.7 includeInActive). */
  inactive?: boolean
}

export interface FakeFleetState {
  devices: FakeDevice[]
  serverTime: number
  /** Alerts waiting for the next poll (newest first once delivered). */
  pending: AlertEntry[]
  history: AlertEntry[]
  configurations: AlarmConfiguration[]
  tracks: ReplayTrack[]
  geofenceIds: number[]
  polls: number
}

export const FAKE_DEVICES: readonly FakeDevice[] = [
  {
    id: 1,
    name: 'Truck 1',
    deviceType: 'truck',
    status: 1,
    lon: 11.97,
    lat: 57.7,
    heading: 90,
    speed: 54,
    time: 0,
  },
  {
    id: 2,
    name: 'Car 2',
    deviceType: 'car',
    status: 2,
    lon: 11.95,
    lat: 57.71,
    heading: 0,
    speed: 0,
    time: 0,
  },
  {
    id: 3,
    name: 'Bus 3',
    deviceType: 'bus',
    status: 8,
    lon: 11.99,
    lat: 57.69,
    heading: 180,
    speed: 38,
    time: 0,
  },
  {
    id: 4,
    name: 'Excavator 4',
    deviceType: 'excavator',
    status: 6,
    lon: 12.01,
    lat: 57.72,
    heading: 0,
    speed: 0,
    time: 0,
  },
  {
    id: 5,
    name: 'Car 5',
    deviceType: 'car',
    status: 6,
    lon: 11.93,
    lat: 57.68,
    heading: 0,
    speed: 0,
    time: 0,
    inactive: true,
  },
]

const square = (lon: number, lat: number, d: number) => ({
  type: 'Polygon',
  coordinates: [
    [
      [lon - d, lat - d],
      [lon + d, lat - d],
      [lon + d, lat + d],
      [lon - d, lat + d],
      [lon - d, lat - d],
    ],
  ],
})

/** `offeredName`: the name of a file offered for import, by its reference. */
export function createFakeFleet(offeredName: (ref: string) => string) {
  const initial = (): FakeFleetState => ({
    devices: FAKE_DEVICES.map((d) => ({ ...d, time: 1_800_000_000 })),
    serverTime: 1_800_000_000,
    pending: [],
    history: [],
    configurations: [],
    tracks: [],
    geofenceIds: [1, 2],
    polls: 0,
  })
  const state = initial()

  const columns = (list: FakeDevice[]): FleetPoll['devices'] => ({
    id: list.map((d) => d.id),
    lon: list.map((d) => d.lon),
    lat: list.map((d) => d.lat),
    heading: list.map((d) => d.heading),
    speed: list.map((d) => d.speed),
    status: list.map((d) => d.status),
    time: list.map((d) => d.time),
    active: list.map((d) => !d.inactive),
    deviceType: list.map((d) => d.deviceType),
    name: list.map((d) => d.name),
    registrationNumber: list.map((d) => `KA01AB${String(d.id).padStart(4, '0')}`),
  })

  const status = (): FleetStatus => ({
    source: 'local',
    simulated: true,
    vehicles: state.devices.length,
    seed: 1,
    network: 'gothenburg-sample',
    networks: [{ id: 'gothenburg-sample', name: 'Sample network: Gothenburg' }],
    geofenceDataset: state.geofenceIds.length ? 'zones' : null,
    geofences: state.geofenceIds.length,
    tracks: state.tracks,
    serverTime: state.serverTime,
    preparing: false,
  })

  const handlers: {
    [K in Extract<OperationName, `telematics.${string}`>]: (request: never) => Result<unknown>
  } = {
    'telematics.poll': (request: { state?: number; alertsSince?: number; includeInActive?: boolean }) => {
      state.polls++
      state.serverTime += 5
      // Moving devices move a little east each poll.
      for (const d of state.devices)
        if (d.speed > 0) {
          d.lon += 0.001
          d.time = state.serverTime
        }
      const since = request.state
      // With `state`, only active devices with newer records (§4.7); inactive ones only when asked for.
      const list =
        since === undefined
          ? state.devices.filter((d) => request.includeInActive || !d.inactive)
          : state.devices.filter((d) => !d.inactive && d.time > since)
      const alerts = request.alertsSince === undefined ? [] : state.pending.splice(0).reverse()
      state.history.unshift(...alerts)
      return ok({
        serverTime: state.serverTime,
        full: since === undefined,
        devices: columns(list),
        alerts,
        alertHistory: true,
      })
    },
    'telematics.device': ({ id }: { id: number }) => {
      const d = state.devices.find((x) => x.id === id)
      if (!d) return fail('not-found', `no device ${id} (203)`)
      return ok({
        device: {
          id: d.id,
          status: d.status,
          source: 'simulation',
          vehicleBattery: 12.6,
          location: {
            latitude: d.lat,
            longitude: d.lon,
            speedKph: d.speed,
            heading: d.heading,
            odometer: 1234.5,
            gpsTime: d.time,
            address: 'Avenyn, Göteborg',
          },
          deviceDetails: { name: d.name, deviceType: d.deviceType, registrationNumber: 'X' },
          canInfo: { engineRPM: 1800, fuelLevel: 62.5, coolantTemp: 88, gearState: 4 },
          deviceFaults: [{ code: 118, timetamp: 1_799_990_000, status: 1 }],
          todaysDrive: { todayKms: 42.3, todayMovementTime: 3720, todayIdleTime: 600, todayDriveCount: 3 },
        },
        hardware: {
          id: `HW${d.id}`,
          name: `${d.name} tracker`,
          deviceTypeName: 'AIS140',
          mappedDeviceIds: [d.id],
          installDate: 1_700_000_000,
        },
      })
    },
    'telematics.hardware': () =>
      ok({
        data: state.devices.map((d) => ({
          id: `HW${d.id}`,
          name: `${d.name} tracker`,
          deviceTypeName: 'AIS140',
          active: true,
        })),
      }),
    'telematics.status': () => ok(status()),
    'telematics.configure': (request: { vehicles?: number }) => {
      if (request.vehicles !== undefined) state.devices = state.devices.slice(0, request.vehicles)
      return ok(status())
    },
    'telematics.createZones': () => {
      state.geofenceIds = [1, 2]
      return ok(status())
    },
    'telematics.geofences': () =>
      ok({
        dataset: state.geofenceIds.length ? 'zones' : null,
        features: state.geofenceIds.map((id) => ({
          type: 'Feature' as const,
          id,
          properties: { name: id === 1 ? 'Depot' : 'Harbour' },
          geometry: square(11.95 + id * 0.02, 57.7, 0.01),
        })),
      }),
    'telematics.previewAlarm': (request: { fields: Record<string, unknown> }) =>
      ok({
        method: 'POST',
        url: 'http://127.0.0.1:1/telematics/alarm',
        query: [],
        headers: [['Authorization', 'Bearer [REDACTED]']],
        body: JSON.stringify(request.fields),
        curl: "curl -X POST 'http://127.0.0.1:1/telematics/alarm' -H 'Authorization: Bearer [REDACTED]'",
        cli: 'geo-analyst fleet alarm create',
      }),
    'telematics.createAlarm': (request: { fields: Record<string, unknown>; idempotencyKey?: string }) => {
      const checked = validateAlarm(request.fields, { geofenceIds: state.geofenceIds })
      if (!checked.ok) {
        const first = checked.issues[0]!
        return fail('validation', checked.issues.map((i) => `${i.field} ${i.rule}`).join('; '), {
          field: first.field,
          status: 400,
        })
      }
      const existing = state.configurations.find((c) => c.idempotencyKey === request.idempotencyKey)
      if (existing) return ok({ configuration: existing, status: 201, fingerprint: 'fp', replayed: true })
      const configuration = {
        id: state.configurations.length + 1,
        ...checked.value,
        ...(request.idempotencyKey ? { idempotencyKey: request.idempotencyKey } : {}),
      }
      state.configurations.push(configuration)
      return ok({ configuration, status: 201, fingerprint: 'fp' })
    },
    'telematics.alarms': () => ok({ configurations: state.configurations, supported: true }),
    'telematics.alerts': () => ok({ alerts: state.history }),
    'telematics.importTrack': ({ file }: { file: string }) => {
      const fileName = offeredName(file)
      const track: ReplayTrack = {
        id: `track-${state.tracks.length + 1}`,
        deviceId: 900 + state.tracks.length,
        name: fileName.replace(/\.[^.]*$/, ''),
        points: 3,
        recordedSeconds: 120,
        speed: 1,
        playing: true,
        position: 0,
        ended: false,
      }
      state.tracks.push(track)
      state.devices.push({
        id: track.deviceId,
        name: track.name,
        deviceType: 'car',
        status: 1,
        lon: 11.96,
        lat: 57.7,
        heading: 45,
        speed: 30,
        time: state.serverTime,
      })
      return ok(track)
    },
    'telematics.controlTrack': (request: {
      id: string
      playing?: boolean
      speed?: number
      restart?: boolean
    }) => {
      const track = state.tracks.find((t) => t.id === request.id)
      if (!track) return fail('not-found', `no track ${request.id}`)
      if (request.playing !== undefined) track.playing = request.playing
      if (request.speed !== undefined) track.speed = request.speed
      if (request.restart) track.position = 0
      return ok(track)
    },
    'telematics.removeTrack': ({ id }: { id: string }) => {
      const track = state.tracks.find((t) => t.id === id)
      if (!track) return fail('not-found', `no track ${id}`)
      state.tracks = state.tracks.filter((t) => t !== track)
      state.devices = state.devices.filter((d) => d.id !== track.deviceId)
      return ok({ removed: id })
    },
  }

  return {
    state,
    handlers,
    reset: () => Object.assign(state, initial()),
  }
}
