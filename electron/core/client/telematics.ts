import { fail, ok, type Result } from '../../contract'
import { issuesFailure, type RawParams } from '../../contract/common/issues'
import { alarmFormFields, validateAlarm, type AlarmBody } from '../../contract/telematics/alarm'
import {
  devicesResponseSchema,
  hardwareResponseSchema,
  validateDevices,
  validateHardware,
  type DevicesResponse,
  type HardwareResponse,
} from '../../contract/telematics/devices'
import { execute, parseJson, parseWith, type ClientContext, type Query } from './execute'
import type { CallOptions } from './places'
import type { CallTable } from './call-input'
import type { telematicsInterface } from '../../contract/telematics/operations'
import { GeoFailure } from '../geo-failure'

export interface AlarmOptions extends CallOptions {
  /** The spec shows both; JSON is the default. */
  contentType?: 'json' | 'form'
  /** Send even though an identical alarm's outcome is unknown in this session. */
  confirm?: boolean
}

export interface AlarmCreated {
  created: true
  status: number
  /** The provider's answer as it came (its shape is not specified). */
  response: unknown
  fingerprint: string
}

function query(values: Record<string, unknown>): Query {
  return Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => [k, String(v)])
}

/** §4.7, §4.8, §4.9; bearer token of the telematics group. */
export function telematicsClient(ctx: ClientContext) {
  return {
    /** GET {telematics_url}/devices ; 203 means the device was not found. */
    async devices(params: RawParams, options: CallOptions = {}): Promise<Result<DevicesResponse>> {
      const checked = validateDevices(params)
      if (!checked.ok) return issuesFailure('telematics.devices', checked.issues)
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
          if (res.status === 203) {
            return fail(
              'not-found',
              `telematics.devices: device${checked.value.id !== undefined ? ` ${checked.value.id}` : ''} not found (HTTP 203)`,
              { status: 203, field: 'id' },
            )
          }
          if (res.status === 204) return ok({ data: [] })
          return parseWith('telematics.devices', res, devicesResponseSchema)
        },
      })
    },

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

    /**
     * POST {telematics_url}/alarm. Sent once: never resent after an ambiguous failure, which is reported
     * as unknown-outcome with the request fingerprint; an identical alarm is then refused for the rest of
     * the session unless `confirm` is given. A 409 is reported as a conflict, never turned into a new write.
     */
    async createAlarm(
      input: Readonly<Record<string, unknown>>,
      options: AlarmOptions = {},
    ): Promise<Result<AlarmCreated>> {
      const checked = validateAlarm(input)
      if (!checked.ok) return issuesFailure('telematics.alarm', checked.issues)
      const body: AlarmBody = checked.value
      const result = await execute<Omit<AlarmCreated, 'fingerprint'>>(ctx, {
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
            return fail('not-found', 'telematics.alarm: device not found (HTTP 203)', {
              status: 203,
              field: 'deviceId',
            })
          if (res.status === 202)
            return fail('unknown-outcome', 'telematics.alarm: accepted but not confirmed (HTTP 202)', {
              status: 202,
            })
          let response: unknown = null
          if (res.body.byteLength > 0) {
            const json = parseJson('telematics.alarm', res)
            response = json.ok ? json.value : new TextDecoder().decode(res.body.subarray(0, 2048))
          }
          return ok({ created: true as const, status: res.status, response })
        },
      })
      if (!result.ok) return result
      return ok({ ...result.value, fingerprint: result.fingerprint ?? '' })
    },
  }
}

export type TelematicsClient = ReturnType<typeof telematicsClient>

/** The area's interface operations for callers such as `geo-analyst call`. */
export const telematicsCalls = {
  'telematics.devices': (client, { params, signal }) => client.telematics.devices(params, { signal }),
  'telematics.hardware': (client, { params, signal }) => client.telematics.hardware(params, { signal }),
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
} satisfies CallTable<typeof telematicsInterface>
