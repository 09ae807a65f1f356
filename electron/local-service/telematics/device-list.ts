import type { DevicesParams } from '../../contract/telematics/devices'
import type { TrackedDevice } from './engine/device'
import type { Fleet } from './engine/fleet'
import { deviceJson } from './engine/record'

/** Which devices a list shows (§4.7's parameters, `state` in unix seconds). */
export type ListFilter = DevicesParams

const round6 = (x: number) => Math.round(x * 1e6) / 1e6

/** The devices a §4.7 list shows, in the fleet's order (the rules of the §2.6 list, shared by both forms). */
function selected(fleet: Fleet, filter: ListFilter): TrackedDevice[] {
  const out: TrackedDevice[] = []
  const consider = (d: TrackedDevice) => {
    if (filter.state !== undefined) {
      if (!d.active || d.report.gprsTime <= filter.state) return
    } else if (!d.active && !filter.includeInActive && filter.id === undefined) return
    if (filter.ignoreBeacon && d.hardware.deviceType === 'BEACON') return
    out.push(d)
  }
  if (filter.id !== undefined) {
    const d = fleet.device(filter.id)
    if (d) consider(d)
  } else for (const d of fleet.all) consider(d)
  return out
}

/** The §2.6 records as one JSON array text, from each device's cached record text. */
function recordsText(fleet: Fleet, devices: readonly TrackedDevice[]): string {
  const t = fleet.step
  const address = (road: string) => fleet.address(road)
  const parts = new Array<string>(devices.length)
  for (let i = 0; i < devices.length; i++) parts[i] = deviceJson(devices[i]!, t, address)
  return `[${parts.join(',')}]`
}

/**
 * The devices as columns (the local extension `form=columns`): exactly what the app reads from the §2.6
 * records (`deviceColumns` in the core) — the position rounded as the record shows it, null for a device
 * at 0,0 (no fix), the status the server shows at this second, the time the record was received.
 */
function columnsText(fleet: Fleet, devices: readonly TrackedDevice[]): string {
  const t = fleet.step
  const n = devices.length
  const id = new Array<number>(n)
  const lon = new Array<string>(n)
  const lat = new Array<string>(n)
  const heading = new Array<number>(n)
  const speed = new Array<number>(n)
  const status = new Array<number>(n)
  const time = new Array<number>(n)
  const active = new Array<boolean>(n)
  const deviceType = new Array<string>(n)
  const name = new Array<string>(n)
  const registration = new Array<string>(n)
  for (let i = 0; i < n; i++) {
    const d = devices[i]!
    const r = d.report
    const la = round6(r.lat)
    const lo = round6(r.lon)
    const located = !(la === 0 && lo === 0)
    id[i] = d.id
    lon[i] = located ? String(lo) : 'null'
    lat[i] = located ? String(la) : 'null'
    heading[i] = r.heading
    speed[i] = r.speed
    status[i] = d.statusAt(t)
    time[i] = r.gprsTime
    active[i] = d.active
    deviceType[i] = d.details.deviceType
    name[i] = d.details.name
    registration[i] = d.details.registrationNumber
  }
  return (
    `{"id":[${id.join(',')}],"lon":[${lon.join(',')}],"lat":[${lat.join(',')}],` +
    `"heading":[${heading.join(',')}],"speed":[${speed.join(',')}],"status":[${status.join(',')}],` +
    `"time":[${time.join(',')}],"active":[${active.join(',')}],"deviceType":${JSON.stringify(deviceType)},` +
    `"name":${JSON.stringify(name)},"registrationNumber":${JSON.stringify(registration)}}`
  )
}

/** What a list's text depends on besides its filter: the fleet's devices, its second, every record's version. */
function revision(fleet: Fleet): string {
  let versions = 0
  let active = 0
  for (const d of fleet.all) {
    versions += d.version
    active = (active * 31 + (d.active ? 1 : 2)) | 0
  }
  return `${fleet.step}:${fleet.all.length}:${versions}:${active}`
}

const MAX_CACHED = 16

/**
 * Both forms of the device list as the answer's bytes, each built and encoded once per fleet second and
 * filter and kept until the fleet changes (the next step, a replay added or removed): every poller of the
 * same second gets the same bytes.
 */
export class DeviceLists {
  private devicesOf: readonly TrackedDevice[] | undefined
  private revisionOf = ''
  private readonly bodies = new Map<string, Buffer>()

  /** `{"data":[§2.6 records],"serverTime":…,"simulated":true}` */
  records(fleet: Fleet, filter: ListFilter): Buffer {
    return this.cached(
      fleet,
      'records',
      filter,
      (devices) => `{"data":${recordsText(fleet, devices)},"serverTime":${fleet.step},"simulated":true}`,
    )
  }

  /** `{"form":"columns","serverTime":…,"simulated":true,"devices":{columns}}` */
  columns(fleet: Fleet, filter: ListFilter): Buffer {
    return this.cached(
      fleet,
      'columns',
      filter,
      (devices) =>
        `{"form":"columns","serverTime":${fleet.step},"simulated":true,"devices":${columnsText(fleet, devices)}}`,
    )
  }

  private cached(
    fleet: Fleet,
    form: string,
    filter: ListFilter,
    build: (devices: TrackedDevice[]) => string,
  ): Buffer {
    const now = revision(fleet)
    if (this.devicesOf !== fleet.all || this.revisionOf !== now) {
      this.bodies.clear()
      this.devicesOf = fleet.all
      this.revisionOf = now
    }
    const key = `${form}|${filter.id ?? ''}|${filter.includeInActive ? 1 : 0}|${filter.ignoreBeacon ? 1 : 0}|${filter.state ?? ''}`
    let body = this.bodies.get(key)
    if (body === undefined) {
      body = Buffer.from(build(selected(fleet, filter)), 'utf8')
      if (this.bodies.size >= MAX_CACHED) this.bodies.clear()
      this.bodies.set(key, body)
    }
    return body
  }
}
