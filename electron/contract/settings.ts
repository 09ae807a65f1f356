import { z } from 'zod'
import { BASE_URLS } from './groups'

/** The six base placeholders of the interface specification, named as the spec names them (`BASE_URLS`). */
export type BaseUrlKey = keyof typeof BASE_URLS
export const BASE_URL_KEYS = Object.keys(BASE_URLS) as BaseUrlKey[]

/** The built-in profile backed by the local service. */
export const LOCAL_PROFILE = 'Local'

export const PROFILE_NAME_RULE = /^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$/

export const profileNameSchema = z
  .string()
  .regex(
    PROFILE_NAME_RULE,
    'a profile name is 1–64 letters, digits, spaces, dots, dashes or underscores, starting with a letter or digit',
  )

export const baseUrlSchema = z.string().refine((value) => {
  try {
    const url = new URL(value)
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password
  } catch {
    return false
  }
}, 'must be an absolute http(s) URL without user name or password in it')

export const baseUrlsSchema = z.object(
  Object.fromEntries(BASE_URL_KEYS.map((key) => [key, baseUrlSchema])) as Record<
    BaseUrlKey,
    typeof baseUrlSchema
  >,
)

export type BaseUrls = z.infer<typeof baseUrlsSchema>

export const profileSchema = z.object({
  name: profileNameSchema,
  builtIn: z.boolean(),
  /** Null for the built-in Local profile while the local service is not running. */
  urls: baseUrlsSchema.nullable(),
})

export type Profile = z.infer<typeof profileSchema>

export const BASEMAP_KINDS = ['offline', 'xyz'] as const

export const preferencesSchema = z.object({
  basemap: z.object({
    kind: z.enum(BASEMAP_KINDS),
    /** XYZ tile template with {x}, {y}, {z}. */
    xyzUrl: z
      .string()
      .refine(
        (value) => /^https?:\/\//.test(value) && ['{x}', '{y}', '{z}'].every((p) => value.includes(p)),
        'must be an http(s) URL template containing {x}, {y} and {z}',
      ),
  }),
})

export type Preferences = z.infer<typeof preferencesSchema>

export const DEFAULT_XYZ_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png'

export const DEFAULT_PREFERENCES: Preferences = {
  basemap: { kind: 'offline', xyzUrl: DEFAULT_XYZ_URL },
}

export const settingsViewSchema = z.object({
  activeProfile: z.string(),
  profiles: z.array(profileSchema),
  preferences: preferencesSchema,
  /** Set when the settings file was unreadable at start and was moved aside. */
  notice: z.string().optional(),
})

export type SettingsView = z.infer<typeof settingsViewSchema>
