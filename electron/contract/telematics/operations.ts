import { z } from 'zod'
import { fileRefSchema, requestPreviewSchema } from '../gis/loop'
import { op, paramDocs, type InterfaceTable } from '../operation'
import type { ContractArea } from '../area'
import { ALARM_FIELDS } from './alarm'
import { devicesShapes, hardwareShapes } from './devices'
import {
  alarmConfigurationSchema,
  alarmCreatedSchema,
  alarmRequestSchema,
  alertSchema,
  fleetConfigureSchema,
  fleetPollRequestSchema,
  fleetPollSchema,
  fleetStatusSchema,
  geofencesSchema,
  MAX_REPLAY_SPEED,
  replayTrackSchema,
} from './fleet'

/** The telematics area's operations of the interface (spec §4.7–§4.9), and two local extensions. */
export const telematicsInterface = {
  'telematics.devices': {
    section: '4.7',
    summary: 'Live devices (all active ones, or one by id)',
    params: paramDocs(devicesShapes, []),
  },
  'telematics.alarm': {
    section: '4.8',
    summary: 'Create an alarm configuration (contentType=json|form chooses the body form)',
    params: [
      ...paramDocs(
        Object.fromEntries(ALARM_FIELDS.map((f) => [f, f])),
        ['alarmType', 'deviceId'],
        ['type', 'duration', 'limit', 'geofenceId'],
      ),
      { name: 'contentType', required: false },
    ],
    body: 'json',
    changesState: true,
  },
  'telematics.hardware': {
    section: '4.9',
    summary: 'Hardware of the devices (all active ones, or one by id)',
    params: paramDocs(hardwareShapes, []),
  },
  'telematics.alarms': {
    section: 'local',
    summary: 'Alarm configurations (GET {telematics_url}/alarm, a local extension)',
    params: [],
  },
  'telematics.alerts': {
    section: 'local',
    summary: 'Alert history since a time (GET {telematics_url}/alerts, a local extension)',
    params: [
      { name: 'since', required: false },
      { name: 'deviceId', required: false },
      { name: 'alarmType', required: false },
      { name: 'limit', required: false },
    ],
  },
} as const satisfies InterfaceTable

const empty = z.object({}).strict()
const deviceId = z.number().int().min(0)

/** The fleet area as the renderer (and the CLI) calls it. */
export const telematicsOperations = {
  'telematics.poll': op(
    fleetPollRequestSchema,
    fleetPollSchema,
    'Live devices (§4.7) as columns for the map and the list, with `state` for what changed, and new alerts',
  ),
  'telematics.device': op(
    z.object({ id: deviceId }).strict(),
    z.object({
      device: z.looseObject({ id: z.number() }),
      hardware: z.looseObject({ id: z.union([z.string(), z.number()]) }).nullable(),
    }),
    'One device (§2.6) with its hardware (§2.5a)',
  ),
  'telematics.hardware': op(
    z.object({ id: deviceId.optional() }).strict(),
    z.object({ data: z.array(z.looseObject({ id: z.union([z.string(), z.number()]) })) }),
    'Hardware of the devices (§4.9), or of one physical device',
  ),
  'telematics.status': op(
    empty,
    fleetStatusSchema,
    'Where the fleet comes from: the simulation, replays, geofences',
  ),
  'telematics.configure': op(
    fleetConfigureSchema,
    fleetStatusSchema,
    'Set the simulated fleet (vehicles, seed, road network) and the geofence layer (local service)',
  ),
  'telematics.createZones': op(
    empty,
    fleetStatusSchema,
    'Create sample geofences over the simulated fleet’s network and use them as the geofence layer',
  ),
  'telematics.geofences': op(empty, geofencesSchema, 'The geofences of the geofence layer, with their ids'),
  'telematics.previewAlarm': op(
    alarmRequestSchema,
    requestPreviewSchema,
    'The exact alarm request (§4.8) with credentials redacted, as curl and as CLI',
  ),
  'telematics.createAlarm': op(
    alarmRequestSchema,
    alarmCreatedSchema,
    'Create an alarm configuration (§4.8); an ambiguous outcome is reconciled by identity',
  ),
  'telematics.alarms': op(
    empty,
    z.object({ configurations: z.array(alarmConfigurationSchema), supported: z.boolean() }),
    'Alarm configurations of the active profile (a local extension; unsupported elsewhere)',
  ),
  'telematics.alerts': op(
    z
      .object({
        since: z.number().min(0).optional(),
        deviceId: deviceId.optional(),
        limit: z.number().int().min(1).max(5000).optional(),
      })
      .strict(),
    z.object({ alerts: z.array(alertSchema) }),
    'Alert history, newest first',
  ),
  'telematics.importTrack': op(
    z
      .object({
        /**
         * The track file offered for import by reference (a desktop grant or a browser-host upload): GPX,
         * CSV (time,lat,lon[,speed]) or GeoJSON (a LineString with times); see TRACK_IMPORT_EXTENSIONS.
         */
        file: fileRefSchema,
        name: z.string().min(1).max(120).optional(),
        speed: z.number().min(1).max(MAX_REPLAY_SPEED).optional(),
      })
      .strict(),
    replayTrackSchema,
    'Import a recorded track as a replayed device',
  ),
  'telematics.controlTrack': op(
    z
      .object({
        id: z.string().min(1).max(64),
        playing: z.boolean().optional(),
        speed: z.number().min(1).max(MAX_REPLAY_SPEED).optional(),
        restart: z.boolean().optional(),
      })
      .strict(),
    replayTrackSchema,
    'Play, pause, change the speed of, or restart a replayed track',
  ),
  'telematics.removeTrack': op(
    z.object({ id: z.string().min(1).max(64) }).strict(),
    z.object({ removed: z.string() }),
    'Remove a replayed track and its device',
  ),
} as const

/** The telematics area's part of the contract, listed in `electron/contract/area-list.ts`. */
export const telematicsContract = {
  operations: telematicsOperations,
  interface: telematicsInterface,
  events: {},
} as const satisfies ContractArea
