import { existsSync } from 'node:fs'
import path from 'node:path'
import { TRACK_IMPORT_EXTENSIONS } from '../../contract/limits'
import { ALARM_TYPE_LABELS, LIMIT_UNITS } from '../../contract/telematics/alarm'
import { DEVICE_STATUS } from '../../contract/telematics/device-status'
import type { DeviceColumns, FleetPoll, ReplayTrack } from '../../contract/telematics/fleet'
import { GeoFailure } from '../../base/geo-failure'
import { localServiceCall } from '../../core/local-service-call'
import { stringFlag, type ParsedArgs } from '../args'
import type { CliCommand, CliContext } from '../context'

/** A whole number flag within bounds, or the fallback. */
function intFlag(
  args: ParsedArgs,
  name: string,
  min: number,
  max: number,
  fallback?: number,
): number | undefined {
  const text = stringFlag(args, name)
  if (text === undefined) return fallback
  const n = Number(text)
  if (!/^\d+$/.test(text) || n < min || n > max)
    throw new GeoFailure('validation', `--${name}: must be a whole number from ${min} to ${max}`, {
      field: name,
    })
  return n
}

const time = (seconds: number) => (seconds > 0 ? new Date(seconds * 1000).toISOString().slice(11, 19) : '—')

/** The devices of a poll as aligned text lines, one per device. */
export function deviceLines(d: DeviceColumns, header = true): string[] {
  const rows = d.id.map((id, i) => [
    String(id),
    d.name[i]!,
    d.deviceType[i]!,
    `${d.status[i]} ${DEVICE_STATUS[d.status[i]!] ?? ''}`.trim(),
    `${d.speed[i]!.toFixed(0)} km/h`,
    d.lat[i] === null ? '—' : `${d.lat[i]!.toFixed(5)},${d.lon[i]!.toFixed(5)}`,
    time(d.time[i]!),
  ])
  const all = header ? [['ID', 'NAME', 'TYPE', 'STATUS', 'SPEED', 'LAT,LON', 'RECEIVED'], ...rows] : rows
  const widths = all[0]?.map((_, c) => Math.max(...all.map((r) => r[c]!.length))) ?? []
  return all.map((r) =>
    r
      .map((cell, c) => cell.padEnd(widths[c]!))
      .join('  ')
      .trimEnd(),
  )
}

/** Until Ctrl-C (or SIGTERM), or `ms` passed. */
function pause(ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (stopped: boolean) => {
      clearTimeout(timer)
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
      resolve(stopped)
    }
    const stop = () => done(true)
    const timer = setTimeout(() => done(false), ms)
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  })
}

async function poll(ctx: CliContext, request: Record<string, unknown>): Promise<FleetPoll> {
  return ctx.invoke('telematics.poll', request)
}

/** `geo-analyst telematics …`: live devices, alarms, alerts and hardware on the active profile; replays locally. */
const telematicsVerbs: CliCommand[] = [
  {
    name: 'telematics devices',
    summary:
      'Live devices (§4.7) of the active profile; --watch prints what changes, polling with state (with --json one JSON line a round)',
    usage: 'telematics devices [--all] [--watch] [--interval SECONDS] [--count N] [--json]',
    flags: { all: 'boolean', watch: 'boolean', interval: 'string', count: 'string' },
    async run(ctx, args) {
      if (args.positionals.length > 0)
        throw new GeoFailure('validation', 'telematics devices takes no arguments (see --help)')
      const interval = intFlag(args, 'interval', 1, 3600, 2)!
      const count = intFlag(args, 'count', 1, 1_000_000)
      const includeInActive = args.flags.all === true
      const first = await poll(ctx, { ...(includeInActive ? { includeInActive } : {}), alertsSince: 0 })
      const shown = first.devices.id.length ? deviceLines(first.devices).join('\n') : 'No devices.'
      if (!args.flags.watch) {
        ctx.print(first, shown)
        return
      }
      // Watching, every round is one JSON line with --json: a script reads them as they come.
      ctx.printUpdate({ serverTime: first.serverTime, devices: first.devices }, shown)
      let state = first.serverTime
      for (let round = 1; count === undefined || round < count; round++) {
        if (await pause(interval * 1000)) break
        const next = await poll(ctx, { state, alertsSince: state })
        state = next.serverTime
        const lines = [
          ...next.alerts.map(
            (a) =>
              `${time(a.timestamp)} ALERT ${ALARM_TYPE_LABELS[a.alarmType] ?? a.alarmType} on device ${a.deviceId}` +
              (a.actualLimit
                ? ` (${a.actualLimit}${LIMIT_UNITS[a.alarmType] ? ` ${LIMIT_UNITS[a.alarmType]}` : ''})`
                : '') +
              (a.severity === 1 ? ' HIGH' : ''),
          ),
          ...deviceLines(next.devices, false),
        ]
        ctx.printUpdate(
          { serverTime: next.serverTime, devices: next.devices, alerts: next.alerts },
          `— ${time(next.serverTime)}: ${next.devices.id.length} changed` +
            (lines.length ? `\n${lines.join('\n')}` : ''),
        )
      }
    },
  },
  {
    name: 'telematics alarm',
    summary: 'Create an alarm configuration (§4.8), checked by the shared per-type rules; or list them',
    usage:
      'telematics alarm create --type ALARM_TYPE --device ID[,ID…] [--limit N] [--duration SECONDS] [--subtype N] [--geofence ID[,ID…]] [--severity 0|1] [--form] [--key IDEMPOTENCY_KEY] [--confirm] | telematics alarm list',
    flags: {
      type: 'string',
      device: 'string',
      limit: 'string',
      duration: 'string',
      subtype: 'string',
      geofence: 'string',
      severity: 'string',
      form: 'boolean',
      key: 'string',
      confirm: 'boolean',
    },
    help: () =>
      [
        'Usage: geo-analyst telematics alarm create --type ALARM_TYPE --device ID[,ID…] [options]',
        '       geo-analyst telematics alarm list',
        '',
        'Alarm types (--type): ' +
          Object.entries(ALARM_TYPE_LABELS)
            .filter(([id]) => id !== '25')
            .map(([id, label]) => `${id} ${label}`)
            .join(', '),
        '--limit: km/h for overspeed (22), km for mileage (133) and distance covered (151), mV for the batteries (129, 161)',
        '--duration: seconds; --subtype: the §4.8 `type` (geofence 1–4, ignition 1/2/3/5, mileage 0/1, distance 1/2)',
        '--key: an Idempotency-Key (one is made when absent); a lost answer is looked for by it, never resent',
      ].join('\n'),
    async run(ctx, args) {
      const [verb, ...extra] = args.positionals
      if (verb === 'list' && extra.length === 0) {
        const listed = await ctx.invoke('telematics.alarms', {})
        const lines = listed.configurations.map(
          (c) =>
            `${c.id}  ${ALARM_TYPE_LABELS[c.alarmType] ?? c.alarmType} (${c.alarmType})  devices ${c.deviceId.join(',')}` +
            (c.limit !== undefined ? `  limit ${c.limit}` : '') +
            (c.duration !== undefined ? `  duration ${c.duration} s` : ''),
        )
        ctx.print(
          listed,
          listed.supported
            ? lines.join('\n') || 'No alarm configurations.'
            : 'This profile’s service does not list alarm configurations.',
        )
        return
      }
      if (verb !== 'create' || extra.length > 0)
        throw new GeoFailure('validation', 'telematics alarm takes create (with options) or list; see --help')
      const fields: Record<string, string> = {}
      for (const [flag, field] of [
        ['type', 'alarmType'],
        ['device', 'deviceId'],
        ['limit', 'limit'],
        ['duration', 'duration'],
        ['subtype', 'type'],
        ['geofence', 'geofenceId'],
        ['severity', 'severity'],
      ] as const) {
        const value = stringFlag(args, flag)
        if (value !== undefined) fields[field] = value
      }
      const key = stringFlag(args, 'key')
      const created = await ctx.invoke('telematics.createAlarm', {
        fields,
        ...(args.flags.form ? { contentType: 'form' } : {}),
        ...(key ? { idempotencyKey: key } : {}),
        ...(args.flags.confirm ? { confirm: true } : {}),
      })
      const id = created.configuration?.id
      ctx.print(
        created,
        `Alarm configuration ${id ?? '(no id in the answer)'} created (HTTP ${created.status})` +
          (created.reconciled
            ? '; the answer was lost and it was found in the list by its Idempotency-Key'
            : '') +
          (created.replayed ? '; this Idempotency-Key had created it before' : ''),
      )
    },
  },
  {
    name: 'telematics alerts',
    summary: 'Alert history of the active profile, newest first (a local service extension)',
    usage: 'telematics alerts [--since UNIX_SECONDS] [--device ID] [--limit N] [--json]',
    flags: { since: 'string', device: 'string', limit: 'string' },
    async run(ctx, args) {
      const since = intFlag(args, 'since', 0, 1e13)
      const deviceId = intFlag(args, 'device', 0, 2 ** 31)
      const limit = intFlag(args, 'limit', 1, 5000)
      const { alerts } = await ctx.invoke('telematics.alerts', {
        ...(since !== undefined ? { since } : {}),
        ...(deviceId !== undefined ? { deviceId } : {}),
        ...(limit !== undefined ? { limit } : {}),
      })
      ctx.print(
        { alerts },
        alerts
          .map(
            (a) =>
              `${new Date(a.timestamp * 1000).toISOString()}  ${ALARM_TYPE_LABELS[a.alarmType] ?? a.alarmType}  device ${a.deviceId}  actual ${a.actualLimit ?? 0} for ${a.actualDuration ?? 0} s${a.severity === 1 ? '  HIGH' : ''}`,
          )
          .join('\n') || 'No alerts.',
      )
    },
  },
  {
    name: 'telematics hardware',
    summary: 'Hardware of the devices (§4.9), or of one physical device by --id',
    usage: 'telematics hardware [--id ID] [--json]',
    flags: { id: 'string' },
    async run(ctx, args) {
      const id = intFlag(args, 'id', 0, 2 ** 31)
      const { data } = await ctx.invoke('telematics.hardware', id === undefined ? {} : { id })
      const text = (v: unknown) => (v === undefined || v === null ? '' : String(v))
      const date = (v: unknown) =>
        typeof v === 'number' ? new Date(v * 1000).toISOString().slice(0, 10) : ''
      ctx.print(
        { data },
        data
          .map(
            (h) =>
              `${text(h.id)}  ${text(h.deviceTypeName ?? h.deviceType)}  ${text(h.trackingCode)}  devices ${Array.isArray(h.mappedDeviceIds) ? h.mappedDeviceIds.join(',') : ''}  ${h.active === false ? 'inactive' : 'active'}  expires ${date(h.expiryDate)}`,
          )
          .join('\n') || 'No hardware.',
      )
    },
  },
  {
    name: 'telematics replay',
    summary:
      'Import a recorded track (GPX, CSV time,lat,lon[,speed], GeoJSON with times) to replay as a device',
    usage: 'telematics replay FILE [--name NAME] [--speed TIMES] [--json]',
    flags: { name: 'string', speed: 'string' },
    async run(ctx, args) {
      const [file] = args.positionals
      if (!file || args.positionals.length !== 1)
        throw new GeoFailure('validation', 'telematics replay takes exactly one FILE', { field: 'file' })
      const source = path.resolve(file)
      if (!TRACK_IMPORT_EXTENSIONS.some((ext) => source.toLowerCase().endsWith(ext)))
        throw new GeoFailure('validation', `${file}: use a ${TRACK_IMPORT_EXTENSIONS.join(', ')} track`, {
          field: 'file',
        })
      if (!existsSync(source)) throw new GeoFailure('not-found', `${file} does not exist`, { field: 'file' })
      const speed = intFlag(args, 'speed', 1, 600)
      const profile = await ctx.profileForCall()
      if (!profile.builtIn)
        throw new GeoFailure(
          'local-configuration',
          `telematics replay: replays belong to the built-in Local profile; the active profile is "${profile.name}"`,
        )
      const core = await ctx.core()
      const local = localServiceCall(() => core.ensureLocalService())
      const response = await local('telematics.importTrack', '/telematics/local/tracks', {
        method: 'POST',
        body: JSON.stringify({
          path: source,
          fileName: path.basename(source),
          ...(stringFlag(args, 'name') ? { name: stringFlag(args, 'name') } : {}),
          ...(speed !== undefined ? { speed } : {}),
        }),
      })
      const { replayTrackSchema } = await import('../../contract/telematics/fleet')
      const track: ReplayTrack = replayTrackSchema.parse(await response.json())
      ctx.print(
        track,
        `Imported ${track.name} as device ${track.deviceId}: ${track.points} points, ${Math.round(track.recordedSeconds)} s recorded, replaying at ${track.speed}× in the local service (track ${track.id})`,
      )
    },
  },
]

/**
 * `geo-analyst telematics …`. Each command also answers to its former name, `fleet <verb>`, so scripts written
 * for it keep working (docs/cli.md).
 */
export const telematicsCommands: readonly CliCommand[] = telematicsVerbs.map((command) => ({
  ...command,
  aliases: [command.name.replace(/^telematics /, 'fleet ')],
}))
