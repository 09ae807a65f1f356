/**
 * The interface's operation groups (spec §3, §5) and their base URLs: one table, from which every layer
 * derives what is group-specific — the credentials a group takes and how it sends them, the base-URL
 * settings and their environment variables, the URL prefixes the local service routes. A group's area has
 * the group's name in every layer (contract, client, core, CLI, local service, renderer).
 */

/** How a group's credential travels (§5). */
export type AuthScheme =
  /** `Authorization: Bearer <token>`. */
  | 'bearer'
  /** The licence key as the first path segment after the base URL (the distance matrix). */
  | 'licence-key-path'

export interface GroupRow {
  /** What a person calls the group (settings, messages). */
  readonly title: string
  readonly auth: AuthScheme
  /** The group's own credential, if it has one: a bearer token named `token.<group>`, or the licence key. */
  readonly ownCredential: 'token' | 'licence-key'
  /** The Accept header of its requests (image AI answers an image, or JSON when it fails). */
  readonly accept: string
}

const JSON_ONLY = 'application/json'

/** The five groups, in the spec's order. */
export const GROUPS = {
  places: {
    title: 'places (standardize, autosuggest)',
    auth: 'bearer',
    ownCredential: 'token',
    accept: JSON_ONLY,
  },
  routing: {
    title: 'distance matrix',
    auth: 'licence-key-path',
    ownCredential: 'licence-key',
    accept: JSON_ONLY,
  },
  gis: { title: 'spatial analytics', auth: 'bearer', ownCredential: 'token', accept: JSON_ONLY },
  telematics: { title: 'telematics', auth: 'bearer', ownCredential: 'token', accept: JSON_ONLY },
  vision: { title: 'image AI', auth: 'bearer', ownCredential: 'token', accept: 'image/*, application/json' },
} as const satisfies Record<string, GroupRow>

export type Group = keyof typeof GROUPS
export const GROUP_NAMES = Object.keys(GROUPS) as Group[]

/** The spec's six base placeholders, named as the spec names them: the group each serves, its path on the local service, and the environment variable that overrides it for the CLI. */
export const BASE_URLS = {
  atlas_url: { group: 'places', localPath: '/atlas', env: 'GEO_ANALYST_ATLAS_URL' },
  advancedmaps_url: { group: 'routing', localPath: '/advancedmaps', env: 'GEO_ANALYST_ADVANCEDMAPS_URL' },
  mgis_url: { group: 'gis', localPath: '/mgis', env: 'GEO_ANALYST_MGIS_URL' },
  mgis_v2_url: { group: 'gis', localPath: '/mgis/v2', env: 'GEO_ANALYST_MGIS_V2_URL' },
  telematics_url: { group: 'telematics', localPath: '/telematics', env: 'GEO_ANALYST_TELEMATICS_URL' },
  aiml_url: { group: 'vision', localPath: '/aiml', env: 'GEO_ANALYST_AIML_URL' },
} as const satisfies Record<string, { group: Group; localPath: `/${string}`; env: string }>

/** The six base placeholders of the interface specification, named as the spec names them (`BASE_URLS`). */
export type BaseUrlKey = keyof typeof BASE_URLS
export const BASE_URL_KEYS = Object.keys(BASE_URLS) as BaseUrlKey[]

/** The credential every bearer group falls back to. */
export const SHARED_TOKEN = 'token'

type OwnCredential<G extends Group> = (typeof GROUPS)[G]['ownCredential'] extends 'licence-key'
  ? 'licence-key'
  : `token.${G}`

/** A group's own credential's name: `token.<group>`, or `licence-key`. */
export function ownCredentialOf<G extends Group>(group: G): OwnCredential<G> {
  return (
    GROUPS[group].ownCredential === 'licence-key' ? 'licence-key' : `token.${group}`
  ) as OwnCredential<G>
}

/** The credentials a group may use, most specific first: its own, then the shared token for a bearer group. */
export function credentialsOf(group: Group): readonly string[] {
  const own = ownCredentialOf(group)
  return GROUPS[group].auth === 'bearer' ? [own, SHARED_TOKEN] : [own]
}
