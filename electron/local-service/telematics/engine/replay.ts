import type { HardwareRecord, ReplayTrack } from '../../../contract/telematics/fleet'
import { HEARTBEAT_SECONDS } from './vehicle'
import { deviceStatus, TrackedDevice, type StepTime } from './device'
import { bearing, segmentMetres } from './trip-route'
import type { TrackPoint } from './track-file'

/** A track as stored in the workspace (`telematics/tracks/<id>.json`). */
export interface StoredTrack {
  id: string
  deviceId: number
  name: string
  fileName: string
  imported: string
  /** [seconds from the first point, lon, lat, km/h or null]. */
  points: Array<[number, number, number, number | null]>
  speed: number
  playing: boolean
  position: number
}

export function storedTrack(
  id: string,
  deviceId: number,
  name: string,
  fileName: string,
  points: readonly TrackPoint[],
  speed: number,
  imported: string,
): StoredTrack {
  const t0 = points[0]!.t
  return {
    id,
    deviceId,
    name,
    fileName,
    imported,
    points: points.map((p) => [Math.round((p.t - t0) * 1000) / 1000, p.lon, p.lat, p.speed]),
    speed,
    playing: true,
    position: 0,
  }
}

/**
 * A recorded track replayed as a device: it moves along the recording at `speed` times real time, ignition
 * on while it plays; paused or at the end it stands, ignition off, and reports once a minute.
 */
export class ReplayDevice extends TrackedDevice {
  private readonly times: Float64Array
  private readonly coords: Float64Array
  private readonly speeds: Float64Array
  private readonly hasSpeed: boolean
  private cursor = 0
  private metres = 0
  private lastLon: number
  private lastLat: number

  constructor(
    readonly track: StoredTrack,
    hardware: HardwareRecord,
  ) {
    super(
      track.deviceId,
      'replay',
      { name: track.name, registrationNumber: `REPLAY ${track.id}`.slice(0, 32), deviceType: 'car' },
      hardware,
      true,
    )
    const n = track.points.length
    this.times = new Float64Array(n)
    this.coords = new Float64Array(n * 2)
    this.speeds = new Float64Array(n)
    this.hasSpeed = track.points.every((p) => p[3] !== null)
    track.points.forEach(([t, lon, lat, speed], i) => {
      this.times[i] = t
      this.coords[i * 2] = lon
      this.coords[i * 2 + 1] = lat
      this.speeds[i] = speed ?? 0
    })
    this.lastLon = this.coords[0]!
    this.lastLat = this.coords[1]!
    // Where it stands before its first report: the start of the recording.
    this.report.lon = this.lastLon
    this.report.lat = this.lastLat
  }

  get duration(): number {
    return this.times[this.times.length - 1]!
  }

  get ended(): boolean {
    return this.track.position >= this.duration
  }

  override get measuresVehicleBattery(): boolean {
    return false
  }

  info(): ReplayTrack {
    const t = this.track
    return {
      id: t.id,
      deviceId: t.deviceId,
      name: t.name,
      points: t.points.length,
      recordedSeconds: this.duration,
      speed: t.speed,
      playing: t.playing && !this.ended,
      position: Math.min(t.position, this.duration),
      ended: this.ended,
    }
  }

  /** Back to the start of the recording (its distance counted afresh). */
  restart(): void {
    this.track.position = 0
    this.cursor = 0
    this.lastLon = this.coords[0]!
    this.lastLat = this.coords[1]!
  }

  /** Where the recording is at `position` seconds: lon, lat, heading and km/h. */
  private at(position: number): { lon: number; lat: number; heading: number; kmh: number } {
    const times = this.times
    const last = times.length - 1
    if (position < times[this.cursor]!) this.cursor = 0
    while (this.cursor < last - 1 && times[this.cursor + 1]! <= position) this.cursor++
    const i = this.cursor
    const c = this.coords
    const span = times[i + 1]! - times[i]!
    const f = span > 0 ? Math.min(1, Math.max(0, (position - times[i]!) / span)) : 1
    const x0 = c[i * 2]!
    const y0 = c[i * 2 + 1]!
    const x1 = c[i * 2 + 2]!
    const y1 = c[i * 2 + 3]!
    const metres = segmentMetres(x0, y0, x1, y1)
    const kmh = this.hasSpeed
      ? this.speeds[i]! + (this.speeds[i + 1]! - this.speeds[i]!) * f
      : span > 0
        ? (metres / span) * 3.6
        : 0
    return {
      lon: x0 + (x1 - x0) * f,
      lat: y0 + (y1 - y0) * f,
      heading: metres > 0.5 ? bearing(x0, y0, x1, y1) : this.report.heading,
      kmh,
    }
  }

  step(time: StepTime): void {
    const t = time.t
    const track = this.track
    if (time.dayChanged) {
      this.report.todayKms = 0
      this.report.todayMovementTime = 0
      this.report.todayIdleTime = 0
      this.report.todayDriveCount = 0
    }
    if (time.monthChanged) this.report.monthKms = 0
    const playing = track.playing && !this.ended
    if (playing) track.position = Math.min(this.duration, track.position + track.speed)
    const heartbeat = (t - (this.id % HEARTBEAT_SECONDS)) % HEARTBEAT_SECONDS === 0
    const wasIgnition = this.report.ignition
    if (!playing && !heartbeat && wasIgnition === false && this.report.gprsTime > 0) return
    const p = this.at(track.position)
    const kmh = playing ? Math.round(p.kmh * 10) / 10 : 0
    const r = this.report
    const moved = segmentMetres(this.lastLon, this.lastLat, p.lon, p.lat)
    this.metres += moved
    if (moved > 0) {
      r.todayKms = Math.round((r.todayKms + moved / 1000) * 100) / 100
      r.monthKms += moved / 1000
      r.odometer = Math.round((this.metres / 1000) * 10) / 10
    }
    if (playing && kmh > 0) r.todayMovementTime++
    else if (playing) r.todayIdleTime++
    if (playing && !wasIgnition) r.todayDriveCount++
    this.moved = p.lon !== r.lon || p.lat !== r.lat
    this.lastLon = p.lon
    this.lastLat = p.lat
    r.gprsTime = t
    r.gpsTime = t
    r.lat = p.lat
    r.lon = p.lon
    r.heading = Math.round(p.heading)
    r.speed = kmh
    r.ignition = playing
    r.gpsFix = true
    r.powerCut = false
    r.status = deviceStatus({ powerCut: false, gpsFix: true, ignition: playing, speed: kmh, onTrip: false })
    this.reported = true
    this.version++
  }
}
