import { z } from 'zod'

/**
 * The fleet as the app sees it: device records (§2.6), hardware (§2.5a), alarm configurations (§4.8) and the
 * alerts they raise, and the local service's simulated and replayed fleet. Shared by the local service, the
 * core, the CLI and the renderer.
 */

/** §2.6 deviceDetails.deviceType values; the spec names "a backhoe-loader value" without spelling it. */
export const DEVICE_TYPES = [
  'car',
  'truck',
  'bus',
  'bike',
  'tracktor',
  'backhoe-loader',
  'excavator',
] as const
export type DeviceType = (typeof DEVICE_TYPES)[number]

/** §3 device status values, in the order the app lists them. */
export const DEVICE_STATUS_VALUES = [1, 8, 2, 9, 4, 7, 5, 6] as const

/** The §2.6 location of a device. Times are unix seconds. */
export interface DeviceLocation {
  gpsTime: number
  gprsTime: number
  latitude: number
  longitude: number
  address: string
  altitude: number
  heading: number
  speedKph: number
  /** Kilometres. */
  odometer: number
}

/** §2.6 alerts: the device's latest alert. */
export interface DeviceAlert {
  deviceId: number
  /** Unix seconds. */
  timestamp: number
  latitude: number
  longitude: number
  address: string
  alarmType: number
  limit: number
  duration: number
  actualLimit: number
  actualDuration: number
  severity: 0 | 1
  /** §3: ignition 0/1 (21); geofence 2 entry, 3 leaving, 4 long stay (26). Absent for other types. */
  data?: number
  geofenceId?: number
  /** Local extensions: the configuration that raised it, and a sequence number (newest is highest). */
  alarmId?: number
  seq?: number
}

export interface CanInfo {
  calcEngineVal: number
  greenDriveType: string
  canTimestamp: number
  coolantTemp: number
  engineRPM: number
  accelPedal: number
  parkBrake: number
  breakPedal: number
  fuelLevel: number
  driverDoor: number
  headLights: number
  blinker: number
  gearState: number
  intakeAirTemp: number
  intakeabsolutePress: number
  ac: number
  fuelConsAVG: number
}

export interface DeviceFault {
  code: number
  /** The spec's spelling. Unix seconds. */
  timetamp: number
  status: 0 | 1
  closedOn?: number
}

/** One element of data[] of GET /devices (§2.6) as the local service answers it. */
export interface DeviceRecord {
  id: number
  active: boolean
  status: number
  /** Volts. */
  vehicleBattery: number
  location: DeviceLocation
  deviceDetails: { name: string; registrationNumber: string; deviceType: string }
  alerts?: DeviceAlert
  canInfo?: CanInfo
  deviceFaults: DeviceFault[]
  currentGeofence: number[]
  todaysDrive: {
    todayKms: number
    todayMovementTime: number
    todayIdleTime: number
    todayDriveCount: number
  }
  /** Local extensions: volts of the tracker's own battery; where the record comes from. */
  internalBattery?: number
  source?: 'simulation' | 'replay'
}

/** §2.5a, as the local service answers it. */
export interface HardwareRecord {
  id: number
  name: string
  deviceType: string
  deviceTypeName: string
  trackingCode: string
  deviceCode: string
  active: boolean
  mappedDeviceIds: number[]
  odometerType: 0 | 1 | 2
  installDate: number
  expiryDate: number
}

/** An alarm configuration as stored and listed (GET /telematics/alarm, a local extension). */
export const alarmConfigurationSchema = z.looseObject({
  id: z.number(),
  alarmType: z.number(),
  deviceId: z.array(z.number()),
  type: z.number().optional(),
  duration: z.number().optional(),
  limit: z.number().optional(),
  geofenceId: z.array(z.number()).optional(),
  severity: z.number().optional(),
  /** ISO time of creation. */
  created: z.string().optional(),
  idempotencyKey: z.string().optional(),
})
export type AlarmConfiguration = z.output<typeof alarmConfigurationSchema>

export const alertSchema = z.looseObject({
  deviceId: z.number(),
  timestamp: z.number(),
  latitude: z.number().nullable().optional(),
  longitude: z.number().nullable().optional(),
  address: z.string().optional(),
  alarmType: z.number(),
  limit: z.number().optional(),
  duration: z.number().optional(),
  actualLimit: z.number().optional(),
  actualDuration: z.number().optional(),
  severity: z.number().optional(),
  data: z.number().optional(),
  geofenceId: z.number().optional(),
  alarmId: z.number().optional(),
  seq: z.number().optional(),
})
export type AlertEntry = z.output<typeof alertSchema>

const column = <T extends z.ZodType>(item: T) => z.array(item)

/**
 * Devices for the map and the list, one array per field (a poll of 5,000 devices is a few arrays of numbers,
 * not 5,000 objects). `lon`/`lat` are null for a device without a location.
 */
export const deviceColumnsSchema = z.object({
  id: column(z.number()),
  lon: column(z.number().nullable()),
  lat: column(z.number().nullable()),
  heading: column(z.number()),
  speed: column(z.number()),
  status: column(z.number()),
  /** Unix seconds the record was received (gprsTime). */
  time: column(z.number()),
  active: column(z.boolean()),
  deviceType: column(z.string()),
  name: column(z.string()),
  registrationNumber: column(z.string()),
})
export type DeviceColumns = z.output<typeof deviceColumnsSchema>

/** Columns of no device (filled a record at a time). */
export function emptyDeviceColumns(): DeviceColumns {
  return {
    id: [],
    lon: [],
    lat: [],
    heading: [],
    speed: [],
    status: [],
    time: [],
    active: [],
    deviceType: [],
    name: [],
    registrationNumber: [],
  }
}

export const fleetPollRequestSchema = z
  .object({
    /** Only devices with records received after this time (unix seconds; `serverTime` of the last poll). */
    state: z.number().min(0).optional(),
    includeInActive: z.boolean().optional(),
    /** Also the alerts raised after this time (unix seconds); absent: none. */
    alertsSince: z.number().min(0).optional(),
  })
  .strict()

export const fleetPollSchema = z.object({
  /** The time to send as `state` next (unix seconds). */
  serverTime: z.number(),
  /** Whether this is the whole fleet (no `state`) or only what changed. */
  full: z.boolean(),
  devices: deviceColumnsSchema,
  /** Newest first. */
  alerts: z.array(alertSchema),
  /** Whether the active profile's service lists alert history (the local service's extension). */
  alertHistory: z.boolean(),
})
export type FleetPoll = z.output<typeof fleetPollSchema>

export const replayTrackSchema = z.object({
  id: z.string(),
  deviceId: z.number(),
  name: z.string(),
  points: z.number(),
  /** Seconds from the first to the last point, as recorded. */
  recordedSeconds: z.number(),
  /** Playback rate: 1 is real time. */
  speed: z.number(),
  playing: z.boolean(),
  /** Seconds of the recording played so far. */
  position: z.number(),
  ended: z.boolean(),
})
export type ReplayTrack = z.output<typeof replayTrackSchema>

export const MAX_FLEET_VEHICLES = 5000
export const DEFAULT_FLEET_VEHICLES = 25
/** Replay speeds offered (any rate from 1 to 600 is accepted). */
export const REPLAY_SPEEDS = [1, 2, 5, 10, 30, 60] as const
export const MAX_REPLAY_SPEED = 600

export const fleetStatusSchema = z.object({
  /** `local`: the built-in service's simulated and replayed fleet; `cloud`: the profile's own devices. */
  source: z.enum(['local', 'cloud']),
  simulated: z.boolean(),
  vehicles: z.number(),
  seed: z.number(),
  network: z.string().nullable(),
  networks: z.array(z.object({ id: z.string(), name: z.string() })),
  geofenceDataset: z.string().nullable(),
  geofences: z.number(),
  tracks: z.array(replayTrackSchema),
  /** Unix seconds of the service's clock. */
  serverTime: z.number(),
  /** Whether the simulation is still preparing its road network (first start: a few seconds). */
  preparing: z.boolean(),
})
export type FleetStatus = z.output<typeof fleetStatusSchema>

export const fleetConfigureSchema = z
  .object({
    vehicles: z.number().int().min(0).max(MAX_FLEET_VEHICLES).optional(),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .optional(),
    network: z.string().min(1).max(64).optional(),
    geofenceDataset: z.string().min(1).max(63).nullable().optional(),
  })
  .strict()
export type FleetConfigure = z.input<typeof fleetConfigureSchema>

const alarmFieldValue = z.union([
  z.string().max(100_000),
  z.number(),
  z.array(z.union([z.string(), z.number()])),
])

export const alarmRequestSchema = z
  .object({
    /** The §4.8 fields as the form holds them (text or typed). */
    fields: z.record(z.string().max(64), alarmFieldValue),
    contentType: z.enum(['json', 'form']).optional(),
    /** Sent as `Idempotency-Key`: the same key never creates a second configuration. */
    idempotencyKey: z.string().min(8).max(128).optional(),
    /** Send although an identical alarm's outcome is unknown. */
    confirm: z.boolean().optional(),
  })
  .strict()
export type AlarmRequest = z.input<typeof alarmRequestSchema>

export const alarmCreatedSchema = z.object({
  configuration: alarmConfigurationSchema.nullable(),
  status: z.number(),
  fingerprint: z.string(),
  /** `found`: the answer was lost, and the configuration was found by its identity in the list. */
  reconciled: z.literal('found').optional(),
  /** The service answered with the first result of this Idempotency-Key (nothing new was created). */
  replayed: z.boolean().optional(),
})
export type AlarmCreated = z.output<typeof alarmCreatedSchema>

export const geofencesSchema = z.object({
  dataset: z.string().nullable(),
  /** GeoJSON features: `id` is the geofenceId, `properties.name` its name when the dataset has one. */
  features: z.array(
    z.object({
      type: z.literal('Feature'),
      id: z.number(),
      properties: z.object({ name: z.string() }),
      geometry: z.looseObject({ type: z.string() }),
    }),
  ),
})
export type Geofences = z.output<typeof geofencesSchema>

/** The answer of `GET {telematics_url}/devices?form=columns` (the local extension of §4.7). */
export const devicesColumnsResponseSchema = z.object({
  form: z.literal('columns'),
  /** The service's clock (unix seconds): the next `state`. */
  serverTime: z.number(),
  devices: deviceColumnsSchema,
})
export type DevicesColumnsResponse = z.output<typeof devicesColumnsResponseSchema>
