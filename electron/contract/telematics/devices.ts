import { z } from 'zod'
import { checkFields, type Checked, type RawParams } from '../common/issues'
import { flag, integerValue, looseBoolean, looseNumber, numberValue } from '../common/values'

/** §4.7 GET {telematics_url}/devices and §4.9 GET {telematics_url}/devices/hardwareinfo. */
export interface DevicesParams {
  id?: number
  includeInActive?: boolean
  ignoreBeacon?: boolean
  state?: number
}

export const devicesShapes = {
  id: integerValue('must be a device id (a non-negative integer)', (n) => n >= 0),
  includeInActive: flag,
  ignoreBeacon: flag,
  state: numberValue('must be a timestamp (a non-negative number)', (n) => n >= 0),
}

export function validateDevices(params: RawParams): Checked<DevicesParams> {
  const { typed, issues } = checkFields(params, devicesShapes, [], 'telematics.devices')
  return issues.length ? { ok: false, issues } : { ok: true, value: typed as DevicesParams }
}

export interface HardwareParams {
  id?: number
}

export const hardwareShapes = { id: devicesShapes.id }

export function validateHardware(params: RawParams): Checked<HardwareParams> {
  const { typed, issues } = checkFields(params, hardwareShapes, [], 'telematics.hardware')
  return issues.length ? { ok: false, issues } : { ok: true, value: typed as HardwareParams }
}

export { DEVICE_STATUS } from './device-status'

/** A device fault: the spec spells its time `timetamp`; `timestamp` is accepted too and copied over. */
const faultSchema = z
  .looseObject({
    code: looseNumber.optional(),
    status: looseNumber.optional(),
    closedOn: looseNumber.optional(),
  })
  .transform((f) => {
    const record = f as Record<string, unknown>
    const t = record.timetamp ?? record.timestamp
    return t === undefined ? f : { ...f, timetamp: looseNumber.parse(t) }
  })

const listOf = <T extends z.ZodType>(item: T) =>
  z
    .unknown()
    .transform((v, ctx) => {
      if (v === undefined || v === null) return [] as z.output<T>[]
      const parsed = z.array(item).safeParse(Array.isArray(v) ? v : [v])
      if (!parsed.success) {
        ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? 'not a list' })
        return z.NEVER
      }
      return parsed.data
    })
    .default([])

export const deviceSchema = z.looseObject({
  id: looseNumber,
  active: looseBoolean.optional(),
  status: looseNumber.optional(),
  vehicleBattery: looseNumber.optional(),
  location: z.looseObject({ latitude: looseNumber.optional(), longitude: looseNumber.optional() }).optional(),
  deviceFaults: listOf(faultSchema).optional(),
})

export const devicesResponseSchema = z.looseObject({ data: listOf(deviceSchema) })
export type DevicesResponse = z.output<typeof devicesResponseSchema>

export const hardwareSchema = z.looseObject({
  id: z.union([z.string(), z.number()]),
  active: looseBoolean.optional(),
  odometerType: looseNumber.optional(),
  installDate: looseNumber.optional(),
  expiryDate: looseNumber.optional(),
})

export const hardwareResponseSchema = z.looseObject({ data: listOf(hardwareSchema) })
export type HardwareResponse = z.output<typeof hardwareResponseSchema>

/** 203 on devices means the device was not found; 204 on hardwareinfo means no content (an empty list). */
export type DevicesResult = { found: true; response: DevicesResponse } | { found: false }

/**
 * A local extension of §4.7 (never sent to a service that does not advertise it): `GET
 * {telematics_url}/devices?form=columns` answers the devices as the map's and list's columns (one array per
 * field) instead of §2.6 records. The built-in local service advertises it in this header of every
 * `GET /devices` answer; the other parameters (`state`, `includeInActive`, `ignoreBeacon`, `id`) keep their
 * §4.7 meaning.
 */
export const LOCAL_EXTENSIONS_HEADER = 'x-geo-local-extensions'
export const DEVICES_COLUMNS_EXTENSION = 'devices-columns'
export const DEVICES_FORM_PARAM = 'form'
export const DEVICES_COLUMNS_FORM = 'columns'

/** Whether an answer's headers advertise the columns form. */
export function advertisesDeviceColumns(headers: { get(name: string): string | null }): boolean {
  const value = headers.get(LOCAL_EXTENSIONS_HEADER)
  return value !== null && value.split(',').some((v) => v.trim() === DEVICES_COLUMNS_EXTENSION)
}
