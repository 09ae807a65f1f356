import { z } from 'zod'
import { BASE_URL_KEYS, type BaseUrlKey } from './groups'

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

/** libpq's `sslmode` values; libpq's default is `prefer`. */
export const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'] as const
export type SslMode = (typeof SSL_MODES)[number]

/** PostgreSQL keeps at most 63 bytes of a name (NAMEDATALEN − 1). */
export const MAX_PG_NAME_BYTES = 63

/** The schema of the product's own bookkeeping in a PostGIS workspace: never one of the user's schemas. */
export const BOOKKEEPING_SCHEMA = 'geo_analyst'

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length

/** A database, user or schema name as PostgreSQL can hold it: 1–63 bytes, single line, no NUL. */
const pgName = (what: string) =>
  z
    .string()
    .min(1, `${what} must not be empty`)
    .refine((v) => utf8Bytes(v) <= MAX_PG_NAME_BYTES, `${what} is longer than PostgreSQL's 63-byte limit`)
    .refine(
      (v) => [...v].every((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f),
      `${what} must not contain control characters`,
    )

/** A host name (letters, digits, dots, dashes), an IPv4 address or an IPv6 address. */
export const databaseHostSchema = z
  .string()
  .min(1, 'host must not be empty')
  .max(253, 'host must be at most 253 characters')
  .refine(
    (v) =>
      /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/.test(v) ||
      (v.includes(':') && /^[0-9A-Fa-f:.]+$/.test(v)),
    'host must be a host name (letters, digits, dots, dashes) or an IP address, without a scheme, port or path',
  )

export const databaseSchemasSchema = z
  .array(
    pgName('a schema name')
      .refine((v) => !v.includes(','), 'a schema name must not contain a comma')
      .refine(
        (v) => v !== BOOKKEEPING_SCHEMA,
        `"${BOOKKEEPING_SCHEMA}" holds the app's own bookkeeping and cannot be a workspace schema`,
      ),
  )
  .min(1, 'list at least one schema (the first is where new datasets go)')
  .max(64, 'list at most 64 schemas')
  .refine((list) => new Set(list).size === list.length, 'a schema is listed twice')

/**
 * A "PostGIS workspace" profile: the built-in local service over a database. The password is never here:
 * it lives in the OS keychain under the profile.
 */
export const postgisFieldsSchema = z.object({
  host: databaseHostSchema,
  port: z
    .number({ message: 'port must be a whole number from 1 to 65535' })
    .int('port must be a whole number from 1 to 65535')
    .min(1, 'port must be a whole number from 1 to 65535')
    .max(65535, 'port must be a whole number from 1 to 65535')
    .default(5432),
  database: pgName('database'),
  user: pgName('user'),
  /** The first is where new datasets are written. */
  schemas: databaseSchemasSchema.default(['public']),
  sslmode: z.enum(SSL_MODES, { message: `sslmode must be one of ${SSL_MODES.join(', ')}` }).default('prefer'),
})

export type PostgisFields = z.output<typeof postgisFieldsSchema>

/** The largest CA certificate (chain) a profile keeps: far above any real chain, far below a settings file's worth. */
export const MAX_CA_CERTIFICATE_CHARS = 64 * 1024

const PEM_CERTIFICATE = /^-----BEGIN CERTIFICATE-----\r?\n(?:[A-Za-z0-9+/=]+\r?\n)+-----END CERTIFICATE-----$/

/**
 * A server's CA certificate (a remote profile trusts it for its own requests, on top of the system's CAs):
 * one or more PEM `CERTIFICATE` blocks, nothing else (a private key is refused). Public, so it lives in the
 * settings, not in the keychain.
 */
export const caCertificateSchema = z
  .string()
  .max(
    MAX_CA_CERTIFICATE_CHARS,
    `a CA certificate is at most ${MAX_CA_CERTIFICATE_CHARS / 1024} KiB of PEM text`,
  )
  .refine(
    (text) => !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text),
    'this is a private key: give the CA certificate (-----BEGIN CERTIFICATE-----), and keep the key secret',
  )
  .refine(
    (text) =>
      text.trim().length > 0 &&
      text
        .trim()
        .split(/(?<=-----END CERTIFICATE-----)\s*/)
        .filter((block) => block.length > 0)
        .every((block) => PEM_CERTIFICATE.test(block)),
    'a CA certificate must be PEM text: one or more -----BEGIN CERTIFICATE----- … -----END CERTIFICATE----- blocks',
  )

/** A profile's kind: absent for the built-in Local and remote profiles (as settings files always were). */
export const PROFILE_KINDS = ['postgis'] as const

export const profileSchema = z.object({
  name: profileNameSchema,
  /** Served by the built-in local service: Local, and every PostGIS workspace profile. */
  builtIn: z.boolean(),
  /** Null for the built-in Local profile while the local service is not running. */
  urls: baseUrlsSchema.nullable(),
  /** `postgis`: the built-in local service over the database `postgis` names. */
  kind: z.enum(PROFILE_KINDS).optional(),
  postgis: postgisFieldsSchema.optional(),
  /** A remote profile's server CA certificate (PEM), trusted for this profile's requests only. */
  caCertificate: caCertificateSchema.optional(),
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
