import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { fail, ok, type Result } from '../../contract'
import { checkFields, issuesFailure, type RawParams } from '../../contract/common/issues'
import { integerValue, numberValue } from '../../contract/common/values'
import { alarmFormFields, validateAlarm, type AlarmBody } from '../../contract/telematics/alarm'
import {
  advertisesDeviceColumns,
  DEVICES_COLUMNS_FORM,
  DEVICES_FORM_PARAM,
  devicesResponseSchema,
  hardwareResponseSchema,
  validateDevices,
  validateHardware,
  type DevicesResponse,
  type HardwareResponse,
} from '../../contract/telematics/devices'
import {
  alarmConfigurationSchema,
  alertSchema,
  devicesColumnsResponseSchema,
  type AlarmConfiguration,
  type DevicesColumnsResponse,
} from '../../contract/telematics/fleet'
import {
  buildRequest,
  execute,
  providerHint,
  refusedAsUnknown,
  parseJson,
  parseWith,
  type BuiltRequest,
  type CallSpec,
  type ClientContext,
  type Query,
} from './execute'
import { noParams, type CallOptions, type CallTable } from './call-input'
import type { telematicsInterface } from '../../contract/telematics/operations'
import { GeoFailure } from '../../base/geo-failure'

export interface AlarmOptions extends CallOptions {
  /** The spec shows both; JSON is the default. */
  contentType?: 'json' | 'form'
  /** Send even though an identical alarm's outcome is unknown in this session. */
  confirm?: boolean
  /**
   * Sent as `Idempotency-Key` (a fresh one when absent): a provider that honours it never creates a second
   * configuration for the same key, and the key is how a lost answer is found again in the list.
   */
  idempotencyKey?: string
}

/**
 * The live devices in whichever form the service answered: the local extension's columns when the service
 * advertises them, else its §2.6 records.
 */
export type DeviceList =
  { form: 'columns'; response: DevicesColumnsResponse } | { form: 'records'; response: DevicesResponse }

export interface AlarmCreated {
  created: true
  status: number
  /** The provider's answer as it came (its shape is not specified). */
  response: unknown
  fingerprint: string
  idempotencyKey: string
  /** `found`: the answer was lost and the configuration was found in the list by its Idempotency-Key. */
  reconciled?: 'found'
  /** The provider answered with the first result of this Idempotency-Key (`Idempotent-Replayed: true`). */
  replayed?: boolean
}

/** The local extension's answers: configurations (GET /alarm) and alert history (GET /alerts). */
const alarmListSchema = z.looseObject({ data: z.array(alarmConfigurationSchema).default([]) })
const alertListSchema = z.looseObject({
  data: z.array(alertSchema).default([]),
  serverTime: z.number().optional(),
})
export type AlertList = z.output<typeof alertListSchema>

const alertsShapes = {
  since: numberValue('must be a timestamp (unix seconds)', (n) => n >= 0),
  deviceId: integerValue('must be a device id', (n) => n >= 0),
  alarmType: integerValue('must be an alarm type id'),
  limit: integerValue('must be an integer from 1 to 5000', (n) => n >= 1 && n <= 5000),
}

function query(values: Record<string, unknown>): Query {
  return Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => [k, String(v)])
}

/** §4.7, §4.8, §4.9; bearer token of the telematics group. */
export function telematicsClient(ctx: ClientContext) {
  /** Base addresses whose service advertised the columns form of the device list (a local extension). */
  const columnsBases = new Set<string>()
  /** Idempotency-Keys of alarms whose outcome is unknown, by what they mean: a confirmed resend reuses the key. */
  const keysByIdentity = new Map<string, string>()

  function alarmSpec(
    body: AlarmBody,
    options: AlarmOptions,
  ): CallSpec<Omit<AlarmCreated, 'fingerprint' | 'idempotencyKey'>> {
    return {
      operation: 'telematics.alarm',
      group: 'telematics',
      base: 'telematics_url',
      method: 'POST',
      path: () => ['alarm'],
      body:
        options.contentType === 'form'
          ? { kind: 'form', fields: alarmFormFields(body) }
          : { kind: 'json', value: body },
      replayable: false,
      fingerprint: true,
      identity: body,
      guardUnknownOutcome: { confirm: options.confirm === true },
      signal: options.signal,
      interpret: (res) => {
        if (res.status === 203)
          return fail(
            'not-found',
            'telematics.alarm: device not found (HTTP 203)' + providerHint(res, ctx.redactor),
            {
              status: 203,
              field: 'deviceId',
            },
          )
        if (res.status === 202)
          return fail('unknown-outcome', 'telematics.alarm: accepted but not confirmed (HTTP 202)', {
            status: 202,
          })
        let response: unknown = null
        if (res.body.byteLength > 0) {
          const json = parseJson('telematics.alarm', res)
          response = json.ok ? json.value : new TextDecoder().decode(res.body.subarray(0, 2048))
        }
        const replayed = res.headers.get('idempotent-replayed') === 'true'
        return ok({ created: true as const, status: res.status, response, ...(replayed ? { replayed } : {}) })
      },
    }
  }

  async function alarms(options: CallOptions = {}): Promise<Result<AlarmConfiguration[]>> {
    return execute<AlarmConfiguration[]>(ctx, {
      operation: 'telematics.alarms',
      group: 'telematics',
      base: 'telematics_url',
      method: 'GET',
      path: () => ['alarm'],
      replayable: true,
      signal: options.signal,
      interpret: (res) => {
        const parsed = parseWith('telematics.alarms', res, alarmListSchema)
        return parsed.ok ? ok(parsed.value.data) : parsed
      },
    })
  }

  const deviceNotFound = (id: number | undefined) =>
    fail('not-found', `telematics.devices: device${id !== undefined ? ` ${id}` : ''} not found (HTTP 203)`, {
      status: 203,
      field: 'id',
    })

  /** GET {telematics_url}/devices ; 203 means the device was not found. */
  async function devices(params: RawParams, options: CallOptions = {}): Promise<Result<DevicesResponse>> {
    const checked = validateDevices(params)
    if (!checked.ok) return issuesFailure('telematics.devices', checked.issues)
    const base = (await ctx.urls())?.telematics_url
    return execute<DevicesResponse>(ctx, {
      operation: 'telematics.devices',
      group: 'telematics',
      base: 'telematics_url',
      method: 'GET',
      path: () => ['devices'],
      query: query({ ...checked.value }),
      replayable: true,
      signal: options.signal,
      interpret: (res) => {
        if (base !== undefined) {
          if (advertisesDeviceColumns(res.headers)) columnsBases.add(base)
          else columnsBases.delete(base)
        }
        if (res.status === 203) return deviceNotFound(checked.value.id)
        if (res.status === 204) return ok({ data: [] })
        return parseWith('telematics.devices', res, devicesResponseSchema)
      },
    })
  }

  /**
   * The live devices as columns (`form=columns`) when this base address's service advertised that local
   * extension in an earlier answer; otherwise — the cloud, a service not yet heard from, one that refuses the
   * form — the §2.6 list, whose answer also tells whether the next call may ask for columns.
   */
  async function deviceList(params: RawParams, options: CallOptions = {}): Promise<Result<DeviceList>> {
    const checked = validateDevices(params)
    if (!checked.ok) return issuesFailure('telematics.devices', checked.issues)
    const base = (await ctx.urls())?.telematics_url
    if (base !== undefined && columnsBases.has(base)) {
      const columns = await execute<DevicesColumnsResponse>(ctx, {
        operation: 'telematics.devices',
        group: 'telematics',
        base: 'telematics_url',
        method: 'GET',
        path: () => ['devices'],
        query: [...query({ ...checked.value }), [DEVICES_FORM_PARAM, DEVICES_COLUMNS_FORM]],
        replayable: true,
        signal: options.signal,
        interpret: (res) => {
          if (!advertisesDeviceColumns(res.headers)) columnsBases.delete(base)
          if (res.status === 203) return deviceNotFound(checked.value.id)
          return parseWith('telematics.devices', res, devicesColumnsResponseSchema)
        },
      })
      if (columns.ok) return ok({ form: 'columns', response: columns.value })
      // A service that no longer knows the form (another one now answers there): ask it for §2.6.
      if (columns.error.status !== 400 && columns.error.failureClass !== 'validation') return columns
      columnsBases.delete(base)
    }
    const records = await devices(checked.value as RawParams, options)
    return records.ok ? ok({ form: 'records', response: records.value }) : records
  }

  return {
    devices,
    deviceList,

    /** GET {telematics_url}/devices/hardwareinfo ; 204 (no content) is an empty list. */
    async hardware(params: RawParams, options: CallOptions = {}): Promise<Result<HardwareResponse>> {
      const checked = validateHardware(params)
      if (!checked.ok) return issuesFailure('telematics.hardware', checked.issues)
      return execute<HardwareResponse>(ctx, {
        operation: 'telematics.hardware',
        group: 'telematics',
        base: 'telematics_url',
        method: 'GET',
        path: () => ['devices', 'hardwareinfo'],
        query: query({ ...checked.value }),
        replayable: true,
        signal: options.signal,
        interpret: (res) => {
          if (res.status === 204) return ok({ data: [] })
          if (res.status === 203)
            return fail('not-found', 'telematics.hardware: device not found (HTTP 203)', {
              status: 203,
              field: 'id',
            })
          return parseWith('telematics.hardware', res, hardwareResponseSchema)
        },
      })
    },

    /** GET {telematics_url}/alarm (a local extension): the configurations, with their Idempotency-Keys. */
    alarms,

    /** GET {telematics_url}/alerts (a local extension): alert history since a time, newest first. */
    async alerts(params: RawParams, options: CallOptions = {}): Promise<Result<AlertList>> {
      const { typed, issues } = checkFields(params, alertsShapes, [], 'telematics.alerts')
      if (issues.length) return issuesFailure('telematics.alerts', issues)
      return execute<AlertList>(ctx, {
        operation: 'telematics.alerts',
        group: 'telematics',
        base: 'telematics_url',
        method: 'GET',
        path: () => ['alerts'],
        query: query(typed),
        replayable: true,
        signal: options.signal,
        interpret: (res) => parseWith('telematics.alerts', res, alertListSchema),
      })
    },

    /** The alarm request exactly as `createAlarm` would build it (for the read-only preview). */
    async describeAlarm(
      input: Readonly<Record<string, unknown>>,
      options: AlarmOptions = {},
    ): Promise<Result<BuiltRequest>> {
      const checked = validateAlarm(input)
      if (!checked.ok) return issuesFailure('telematics.alarm', checked.issues)
      const spec = alarmSpec(checked.value, options)
      const base = (await ctx.urls())?.[spec.base]
      if (!base)
        return fail(
          'local-configuration',
          `telematics.alarm: the active profile has no ${spec.base} (the {${spec.base}} base address); set it in the profile`,
          { field: spec.base },
        )
      const credential = (await ctx.credential(spec.group)) ?? 'TOKEN'
      const key = options.idempotencyKey ?? 'NEW-KEY-PER-CREATION'
      return ok(
        buildRequest({ ...spec, headers: { 'Idempotency-Key': key } } as CallSpec<unknown>, base, credential),
      )
    },

    /**
     * POST {telematics_url}/alarm with an Idempotency-Key. Sent once: never resent after an ambiguous
     * failure. The answer lost, the configurations are listed and the key looked for: found → created
     * (`reconciled: "found"`); not found, or no list to read → unknown-outcome with the request fingerprint,
     * and an identical alarm is refused for the rest of the session unless `confirm` is given — a confirmed
     * resend carries the same key, so a provider that honours keys still creates one configuration. A 409 is
     * reported as a conflict, never turned into a new write.
     */
    async createAlarm(
      input: Readonly<Record<string, unknown>>,
      options: AlarmOptions = {},
    ): Promise<Result<AlarmCreated>> {
      const checked = validateAlarm(input)
      if (!checked.ok) return issuesFailure('telematics.alarm', checked.issues)
      const body: AlarmBody = checked.value
      const identity = JSON.stringify(body)
      const key = options.idempotencyKey ?? keysByIdentity.get(identity) ?? randomUUID()
      const spec = { ...alarmSpec(body, options), headers: { 'Idempotency-Key': key } }
      const refused = await refusedAsUnknown(ctx, spec)
      const result = await execute(ctx, spec)
      const print = result.fingerprint ?? ''
      if (result.ok) {
        keysByIdentity.delete(identity)
        return ok({ ...result.value, fingerprint: print, idempotencyKey: key })
      }
      // A clear failure, or refused unsent (an identical alarm's outcome is already unknown).
      if (result.error.failureClass !== 'unknown-outcome' || result.error.status === 202 || refused)
        return result
      // The outcome is unknown: a confirmed resend must reuse this key.
      keysByIdentity.set(identity, key)
      const listed = await alarms(options)
      if (!listed.ok)
        return fail(
          'unknown-outcome',
          `${result.error.message}; the configurations could not be listed to look for it (${listed.error.message})`,
          { code: result.error.code },
        )
      const found = listed.value.find((a) => a.idempotencyKey === key)
      if (found) {
        keysByIdentity.delete(identity)
        ctx.unknownOutcomes.delete(print)
        return ok({
          created: true as const,
          status: 201,
          response: found,
          fingerprint: print,
          idempotencyKey: key,
          reconciled: 'found' as const,
        })
      }
      return fail(
        'unknown-outcome',
        `${result.error.message}; no configuration with its Idempotency-Key ${key} is in the list — it was probably not created; resend with confirm (the same key, so it cannot be created twice)`,
        { code: result.error.code },
      )
    },
  }
}

export type TelematicsClient = ReturnType<typeof telematicsClient>

/** The area's interface operations for callers such as `geo-analyst call`. */
export const telematicsCalls = {
  'telematics.devices': (client, { params, signal }) => client.telematics.devices(params, { signal }),
  'telematics.hardware': (client, { params, signal }) => client.telematics.hardware(params, { signal }),
  'telematics.alarms': async (client, input) => {
    noParams('telematics.alarms', input)
    const r = await client.telematics.alarms({ signal: input.signal })
    return r.ok ? ok({ data: r.value }) : r
  },
  'telematics.alerts': (client, { params, signal }) => client.telematics.alerts(params, { signal }),
  'telematics.alarm': async (client, { params, body, confirm, signal }) => {
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
      throw new GeoFailure('validation', '--body for telematics.alarm must be a JSON object', {
        field: 'body',
      })
    }
    const { contentType, ...fields } = params
    if (contentType !== undefined && contentType !== 'json' && contentType !== 'form') {
      throw new GeoFailure('validation', 'contentType must be json or form', { field: 'contentType' })
    }
    return client.telematics.createAlarm(
      { ...(body as Record<string, unknown> | undefined), ...fields },
      { contentType, confirm: confirm === true, signal },
    )
  },
} satisfies CallTable<typeof telematicsInterface, { telematics: TelematicsClient }>

/** The telematics group's part of the client, listed in `area-list.ts`: its client and its calls. */
export const telematicsClientArea = { client: telematicsClient, calls: telematicsCalls }
