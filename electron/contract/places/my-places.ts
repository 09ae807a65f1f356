import { z } from 'zod'
import { checkFields, type Checked, type RawParams } from '../common/issues'
import { numberValue, text } from '../common/values'

/**
 * My places: the analyst's saved places (a local extension of the places group). They come back in
 * autosuggest's `userAddedLocation` (spec §2.2) when the query matches them.
 */
export interface SavePlaceParams {
  placeName: string
  latitude: number
  longitude: number
  placeAddress?: string
  /** Kind of place, e.g. POI or the type of the suggestion it was saved from. */
  type?: string
}

export const savePlaceShapes = {
  placeName: text(200),
  latitude: numberValue('must be a latitude in -90..90', (n) => Math.abs(n) <= 90),
  longitude: numberValue('must be a longitude in -180..180', (n) => Math.abs(n) <= 180),
  placeAddress: text(500),
  type: z.string().regex(/^[A-Za-z_]{1,32}$/, 'must be a place kind such as POI or LOCALITY'),
}

export function validateSavePlace(params: RawParams): Checked<SavePlaceParams> {
  const { typed, issues } = checkFields(
    params,
    savePlaceShapes,
    ['placeName', 'latitude', 'longitude'],
    'places.savePlace',
  )
  return issues.length ? { ok: false, issues } : { ok: true, value: typed as unknown as SavePlaceParams }
}

/** A saved place's eLoc: eight characters, so it never meets a gazetteer eLoc (six). */
export const USER_ELOC = /^[0-9A-Z]{8}$/

export const savedPlaceSchema = z.object({
  eLoc: z.string().regex(USER_ELOC),
  placeName: z.string(),
  placeAddress: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  type: z.string(),
  userName: z.string(),
  created: z.string(),
})
export type SavedPlace = z.infer<typeof savedPlaceSchema>
export const savedPlacesSchema = z.array(savedPlaceSchema)
