import type { DeviceRecord } from '../../../contract/telematics/fleet'
import type { TrackedDevice } from './device'

const round6 = (x: number) => Math.round(x * 1e6) / 1e6

/**
 * A device's §2.6 record as the server shows it at `t`: its last report, the status the server reads from it
 * (5 when the device has been silent too long), its faults, geofences and latest alert.
 */
export function deviceRecord(d: TrackedDevice, t: number, address: string): DeviceRecord {
  return JSON.parse(deviceJsonText(d, t, address)) as DeviceRecord
}

const quoted = new Map<string, string>()
/** A string as JSON (addresses repeat: their text is kept). */
function q(text: string): string {
  let out = quoted.get(text)
  if (out === undefined) {
    out = JSON.stringify(text)
    if (quoted.size < 10_000) quoted.set(text, out)
  }
  return out
}

/**
 * The record's JSON written field by field: the same members, in the same order, as `JSON.stringify` of the
 * record, at a fraction of its cost (a full list of 5,000 devices is built within a poll's budget).
 */
function deviceJsonText(d: TrackedDevice, t: number, address: string): string {
  const r = d.report
  const c = d.can
  const can = c
    ? `,"canInfo":{"calcEngineVal":${c.calcEngineVal},"greenDriveType":${q(c.greenDriveType)},"canTimestamp":${c.canTimestamp},"coolantTemp":${c.coolantTemp},"engineRPM":${c.engineRPM},"accelPedal":${c.accelPedal},"parkBrake":${c.parkBrake},"breakPedal":${c.breakPedal},"fuelLevel":${c.fuelLevel},"driverDoor":${c.driverDoor},"headLights":${c.headLights},"blinker":${c.blinker},"gearState":${c.gearState},"intakeAirTemp":${c.intakeAirTemp},"intakeabsolutePress":${c.intakeabsolutePress},"ac":${c.ac},"fuelConsAVG":${c.fuelConsAVG}}`
    : ''
  const alert = d.latestAlert ? `,"alerts":${JSON.stringify(d.latestAlert)}` : ''
  const faults = d.faults.length > 0 ? JSON.stringify(d.faults) : '[]'
  const fences = d.currentGeofence.length > 0 ? `[${d.currentGeofence.join(',')}]` : '[]'
  return (
    `{"id":${d.id},"active":${d.active},"status":${d.statusAt(t)},"vehicleBattery":${r.vehicleBattery},` +
    `"location":{"gpsTime":${r.gpsTime},"gprsTime":${r.gprsTime},"latitude":${round6(r.lat)},"longitude":${round6(r.lon)},"address":${q(address)},"altitude":0,"heading":${r.heading},"speedKph":${r.speed},"odometer":${r.odometer}},` +
    `"deviceDetails":${d.detailsJson}${alert}${can},"deviceFaults":${faults},"currentGeofence":${fences},` +
    `"todaysDrive":{"todayKms":${r.todayKms},"todayMovementTime":${r.todayMovementTime},"todayIdleTime":${r.todayIdleTime},"todayDriveCount":${r.todayDriveCount}},` +
    `"internalBattery":${r.internalBattery},"source":"${d.source}"}`
  )
}

/** The record's JSON, built again only when the device changed or its shown status did. */
export function deviceJson(d: TrackedDevice, t: number, address: (road: string) => string): string {
  const status = d.statusAt(t)
  const version = d.version * 16 + status
  if (d.json === undefined || d.jsonVersion !== version) {
    d.json = deviceJsonText(d, t, address(d.report.road))
    d.jsonVersion = version
  }
  return d.json
}
