import { z } from 'zod'
import { CONTROL_CHARS, toBoolean, toInteger, toNumber } from './issues'

/**
 * Field schemas shared by the operation validators and the tolerant response parsers: they accept
 * what the spec declares loosely (booleans as text, numbers as text) and give typed values.
 */

export const text = (max = 256) =>
  z
    .string()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine((v) => !CONTROL_CHARS.test(v), 'must not contain control characters')

export const flag = z.union([z.boolean(), z.string()]).transform((v, ctx) => {
  const b = toBoolean(v)
  if (b === undefined) {
    ctx.addIssue({ code: 'custom', message: 'must be true or false' })
    return z.NEVER
  }
  return b
})

/** A valueless query flag (`?bridge`): present means on. Accepts true/false or '' from code and argv. */
export const valuelessFlag = z.union([z.boolean(), z.string()]).transform((v, ctx) => {
  if (v === '') return true
  const b = toBoolean(v)
  if (b === undefined) {
    ctx.addIssue({ code: 'custom', message: 'is a flag: true or false' })
    return z.NEVER
  }
  return b
})

export const numberValue = (rule = 'must be a number', check: (n: number) => boolean = () => true) =>
  z.union([z.number(), z.string()]).transform((v, ctx) => {
    const n = toNumber(v)
    if (n === undefined || !check(n)) {
      ctx.addIssue({ code: 'custom', message: rule })
      return z.NEVER
    }
    return n
  })

export const integerValue = (rule = 'must be an integer', check: (n: number) => boolean = () => true) =>
  z.union([z.number(), z.string()]).transform((v, ctx) => {
    const n = toInteger(v)
    if (n === undefined || !check(n)) {
      ctx.addIssue({ code: 'custom', message: rule })
      return z.NEVER
    }
    return n
  })

/** Response side: a boolean that may come as text; anything else stays as it came. */
export const looseBoolean = z.unknown().transform((v) => toBoolean(v) ?? v)

/** Response side: a number that may come as text; anything else stays as it came. */
export const looseNumber = z.unknown().transform((v) => toNumber(v) ?? v)

/** Coordinates may be replaced by the text RESTRICTED (spec §2.2): kept as that marker, never NaN. */
export const RESTRICTED = 'RESTRICTED' as const
export type Coordinate = number | typeof RESTRICTED | null

export const coordinate = z
  .unknown()
  .transform((v): Coordinate => {
    if (typeof v === 'string' && v.trim().toUpperCase() === RESTRICTED) return RESTRICTED
    const n = toNumber(v)
    return n === undefined ? null : n
  })
  .default(null)
