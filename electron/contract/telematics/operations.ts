import { paramDocs, type InterfaceTable } from '../operation'
import { ALARM_FIELDS } from './alarm'
import { devicesShapes, hardwareShapes } from './devices'

/** The telematics area's operations of the interface (spec §4.7–§4.9). */
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
} as const satisfies InterfaceTable
