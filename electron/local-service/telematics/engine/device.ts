import type {
  CanInfo,
  DeviceAlert,
  DeviceFault,
  DeviceType,
  HardwareRecord,
} from '../../../contract/telematics/fleet'

/** What every device's step sees of the fleet's clock (unix seconds, local day and month). */
export interface StepTime {
  /** Unix seconds of this step. */
  t: number
  /** Hour of the day in the network's time zone, 0–23, and that zone's UTC offset (seconds). */
  localHour: number
  offset: number
  /** Whether local midnight (or the first of a month) passed since the previous step. */
  dayChanged: boolean
  monthChanged: boolean
}

/**
 * The server's view of a device: what its last report said. Alarms are evaluated on it, the device list
 * shows it; a device that cannot reach the server (GPRS loss) keeps its last report.
 */
export interface Report {
  /** Unix seconds the server received the last report (gprsTime) and of the last GPS fix (gpsTime). */
  gprsTime: number
  gpsTime: number
  lat: number
  lon: number
  heading: number
  /** km/h, one decimal: the value alarms compare with the limit. */
  speed: number
  ignition: boolean
  gpsFix: boolean
  /** The tracker has no external power (status 6). */
  powerCut: boolean
  /** §3 status when reported. */
  status: number
  /** Volts. */
  vehicleBattery: number
  internalBattery: number
  /** Kilometres. */
  odometer: number
  todayKms: number
  todayMovementTime: number
  todayIdleTime: number
  todayDriveCount: number
  monthKms: number
  /** Highway class the device was on (for the address line), or ''. */
  road: string
  /** Harsh event of the last seconds (HA, HB, HC) or ''. */
  greenDriveType: string
}

export const emptyReport = (): Report => ({
  gprsTime: 0,
  gpsTime: 0,
  lat: 0,
  lon: 0,
  heading: 0,
  speed: 0,
  ignition: false,
  gpsFix: true,
  powerCut: false,
  status: 9,
  vehicleBattery: 12.6,
  internalBattery: 4.15,
  odometer: 0,
  todayKms: 0,
  todayMovementTime: 0,
  todayIdleTime: 0,
  todayDriveCount: 0,
  monthKms: 0,
  road: '',
  greenDriveType: '',
})

/** Seconds without a report after which the server shows a device as "no data" (status 5). */
export const NO_DATA_AFTER_MOVING = 30
export const NO_DATA_AFTER_PARKED = 150

/**
 * A device of the local fleet: a simulated vehicle or a replayed track. Subclasses move it; this holds what
 * the server knows (its last report), its geofences, faults and latest alert, and the one-step events
 * (panic button, power cut) the alarm evaluators read.
 */
export abstract class TrackedDevice {
  readonly report: Report = emptyReport()
  /** A report arrived in this step (alarm evaluators that need a fresh position look at it). */
  reported = false
  /** The reported position changed in this step (geofences are re-tested). */
  moved = false
  /** Events of this step, raised by the device itself. */
  panicPressed = false
  unplugged = false
  /** A CAN reading with the last report (OBD trackers only). */
  can: CanInfo | undefined
  faults: DeviceFault[] = []
  currentGeofence: number[] = []
  latestAlert: DeviceAlert | undefined
  /** The record's JSON as last built, and the version it was built for. */
  json: string | undefined
  jsonVersion = -1
  /** Grows whenever the record changes (a report, an alert, a geofence change). */
  version = 0
  /** deviceDetails as JSON (it never changes). */
  readonly detailsJson: string

  constructor(
    readonly id: number,
    readonly source: 'simulation' | 'replay',
    readonly details: { name: string; registrationNumber: string; deviceType: DeviceType },
    readonly hardware: HardwareRecord,
    public active: boolean,
  ) {
    this.detailsJson = JSON.stringify(details)
  }

  /** Advance one second of the fleet's clock. */
  abstract step(time: StepTime): void

  beginStep(): void {
    this.reported = false
    this.moved = false
    this.panicPressed = false
    this.unplugged = false
  }

  /** The status the server shows at `t`: the reported one, or 5 when the device has been silent too long. */
  statusAt(t: number): number {
    const r = this.report
    if (r.gprsTime === 0) return 5
    const silent = t - r.gprsTime
    return silent > (r.ignition ? NO_DATA_AFTER_MOVING : NO_DATA_AFTER_PARKED) ? 5 : r.status
  }

  /** Whether the tracker reads the vehicle's battery (a phone beacon or a recorded track does not). */
  get measuresVehicleBattery(): boolean {
    return true
  }

  /** Note a change of the record that is not a report (an alert, a fault). */
  touch(): void {
    this.version++
  }
}

/**
 * §3 status from what the device knows, the most specific first: power off (6), no GPS fix (7), towing (4:
 * ignition off while moving), idle (2: ignition on, stopped), on trip (8), moving (1), free vehicle (9).
 * "No data" (5) is the server's reading of a silent device (`statusAt`).
 */
export function deviceStatus(s: {
  powerCut: boolean
  gpsFix: boolean
  ignition: boolean
  speed: number
  onTrip: boolean
}): number {
  if (s.powerCut) return 6
  if (!s.gpsFix) return 7
  if (!s.ignition && s.speed > 0) return 4
  if (s.ignition && s.speed === 0) return 2
  if (s.onTrip) return 8
  if (s.speed > 0) return 1
  return 9
}
