import { z } from 'zod'
import { checkFields, issue, type Checked, type RawParams } from '../common/issues'
import { coordinate, looseNumber, text, valuelessFlag } from '../common/values'

/** §4.2 GET {atlas_url}/api/places/search/json — autosuggest. */
export const POD_VALUES = ['SLC', 'LC', 'CITY', 'VLG', 'SDIST', 'DIST', 'STATE', 'SSLC'] as const
export type Pod = (typeof POD_VALUES)[number]

/** The three valueless flags: sent as bare keys (`?query=x&bridge`), never `=true`. */
export const AUTOSUGGEST_FLAGS = ['tokenizeAddress', 'bridge', 'hyperLocal'] as const

export interface AutosuggestParams {
  query: string
  location?: string
  region?: string
  tokenizeAddress?: boolean
  pod?: Pod
  filter?: string
  bridge?: boolean
  hyperLocal?: boolean
}

const NUM = '[+-]?\\d+(?:\\.\\d+)?'
const LAT_LNG = new RegExp(`^(${NUM}),(${NUM})$`)
const inLatLng = (lat: number, lng: number) => Math.abs(lat) <= 90 && Math.abs(lng) <= 180

export function isLatLng(value: string): boolean {
  const m = LAT_LNG.exec(value.replace(/\s+/g, ''))
  return !!m && inLatLng(Number(m[1]), Number(m[2]))
}

/** filter forms: pin:<pincode>; bounds:<lat1>,<lng1>;<lat2>,<lng2>; cop:<eloc>. */
export function isAutosuggestFilter(value: string): boolean {
  if (/^pin:\d{6}$/.test(value)) return true
  if (/^cop:[A-Za-z0-9]{6}([A-Za-z0-9]{2})?$/.test(value)) return true
  const b = /^bounds:([^;]+);([^;]+)$/.exec(value)
  return !!b && isLatLng(b[1] as string) && isLatLng(b[2] as string)
}

export const autosuggestShapes = {
  query: text(512).refine((v) => v.trim().length > 0, 'must not be blank'),
  location: z
    .string()
    .refine(isLatLng, 'must be <latitude>,<longitude> with latitude in -90..90 and longitude in -180..180'),
  region: z.string().regex(/^[A-Za-z]{2,3}$/, 'must be a country code such as IND'),
  tokenizeAddress: valuelessFlag,
  pod: z.enum(POD_VALUES, { message: `must be one of ${POD_VALUES.join(', ')}` }),
  filter: z
    .string()
    .refine(
      isAutosuggestFilter,
      'must be pin:<6-digit pincode>, bounds:<lat1>,<lng1>;<lat2>,<lng2> or cop:<eLoc>',
    ),
  bridge: valuelessFlag,
  hyperLocal: valuelessFlag,
}

export function validateAutosuggest(params: RawParams): Checked<AutosuggestParams> {
  const { typed, present, issues } = checkFields(
    params,
    autosuggestShapes,
    ['query'],
    'places.autosuggest',
    AUTOSUGGEST_FLAGS,
  )
  if (typed.hyperLocal === true && !present.has('location')) {
    issues.push(issue('location', 'missing', 'hyperLocal works only together with location'))
  }
  return issues.length ? { ok: false, issues } : { ok: true, value: typed as unknown as AutosuggestParams }
}

const s = z
  .unknown()
  .transform((v) => (v === undefined || v === null ? undefined : String(v)))
  .optional()

export const suggestedLocationSchema = z.looseObject({
  type: s,
  typeX: looseNumber.optional(),
  placeAddress: s,
  latitude: coordinate,
  longitude: coordinate,
  entryLatitude: coordinate,
  entryLongitude: coordinate,
  eLoc: s,
  placeName: s,
  alternateName: s,
  keywords: z.array(z.unknown()).catch([]),
  addressTokens: z.looseObject({ pincode: looseNumber.optional() }).optional(),
  p: looseNumber.optional(),
  orderIndex: looseNumber.optional(),
  score: looseNumber.optional(),
  suggester: s,
  richInfo: z.array(z.unknown()).catch([]),
})

export const userAddedLocationSchema = z.looseObject({
  eLoc: s,
  latitude: coordinate,
  longitude: coordinate,
  entryLatitude: coordinate,
  entryLongitude: coordinate,
  orderIndex: looseNumber.optional(),
  placeAddress: s,
  placeName: s,
  resultType: s,
  type: s,
  userName: s,
})

export const suggestedSearchSchema = z.looseObject({
  keyword: s,
  identifier: s,
  location: s,
  hyperlink: s,
  orderIndex: looseNumber.optional(),
  eLoc: s,
})

const list = <T extends z.ZodType>(item: T) =>
  z
    .unknown()
    .transform((v, ctx) => {
      if (v === undefined || v === null) return [] as z.output<T>[]
      const parsed = z.array(item).safeParse(v)
      if (!parsed.success) {
        ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? 'not a list' })
        return z.NEVER
      }
      return parsed.data
    })
    .default([])

/** §2.2, parsed tolerantly; `lang` is 'hi' when the provider answered in Hindi, else 'en'. */
export const autosuggestResponseSchema = z.looseObject({
  suggestedLocations: list(suggestedLocationSchema),
  userAddedLocation: list(userAddedLocationSchema),
  suggestedSearches: list(suggestedSearchSchema),
  lang: z
    .unknown()
    .transform((v) => (typeof v === 'string' && v.trim().toLowerCase() === 'hi' ? 'hi' : 'en') as 'hi' | 'en')
    .default('en'),
})

export type AutosuggestResponse = z.output<typeof autosuggestResponseSchema>
/** 204 on autosuggest means nothing was found: an empty result, not an error. */
