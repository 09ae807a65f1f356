import { z } from 'zod'
import { checkFields, type Checked, type RawParams } from '../common/issues'
import { numberValue, text } from '../common/values'

/** §4.1 GET {atlas_url}/api/places/woodpecker — address standardization. */
export interface StandardizeParams {
  address: string
  /** Urban/rural bias; the provider's default is 1.5 (urban), 1 is neutral. */
  bias?: number
}

/** Longest address accepted (characters). */
export const MAX_ADDRESS_LENGTH = 1000

export const standardizeShapes = {
  address: text(MAX_ADDRESS_LENGTH).refine((v) => v.trim().length > 0, 'must not be blank'),
  bias: numberValue(
    'must be a positive number (1 neutral, 1.5 urban, below 1 rural)',
    (n) => n > 0 && n <= 100,
  ),
}

export function validateStandardize(params: RawParams): Checked<StandardizeParams> {
  const { typed, issues } = checkFields(params, standardizeShapes, ['address'], 'places.standardize')
  return issues.length ? { ok: false, issues } : { ok: true, value: typed as unknown as StandardizeParams }
}

const str = z
  .unknown()
  .transform((v) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v)))
  .default('')
const named = z.looseObject({ originalName: str.optional() })

/** §2.1, parsed tolerantly: absent tagged parts become '', unknown members are kept. */
export const standardizedAddressSchema = z.looseObject({
  inputAddress: str,
  remainingAddress: str,
  referentialInformation: z
    .looseObject({
      pincodes: str,
      floors: str,
      roads: str,
      postOffices: str,
      careOfs: str,
      landmarks: str,
      houseNumbers: z
        .looseObject({ prefix: str, houseNo: str, formatted: str })
        .catch({ prefix: '', houseNo: '', formatted: '' }),
    })
    .optional(),
  addressInformation: z
    .looseObject({
      adminDetails: z
        .looseObject({
          state: named.optional(),
          locality: named.optional(),
          city: named.optional(),
          sublocality: named.optional(),
          subsublocality: named.optional(),
        })
        .optional(),
      adminPattern: z.array(z.unknown().transform(String)).optional(),
    })
    .optional(),
})

export type StandardizedAddress = z.output<typeof standardizedAddressSchema>

/** 204 on woodpecker means the address was not found. */
export type StandardizeResult = { found: true; address: StandardizedAddress } | { found: false }
