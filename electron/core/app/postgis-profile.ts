import type { PostgisFields, Profile } from '../../contract'

/**
 * What the built-in local service is started with for a PostGIS workspace profile: the database URI
 * (`postgresql://USER@HOST:PORT/DB?schema=…&sslmode=…`, never a password) and the environment that carries
 * the password as libpq takes it (`PGPASSWORD`) — never argv, never a file.
 */
export interface LocalServiceDatabase {
  databaseUri: string
  env: { PGPASSWORD?: string }
}

/** A PostGIS workspace profile's fields as the workspace URI the local service parses (no password in it). */
export function databaseUriOf(fields: PostgisFields): string {
  const host = fields.host.includes(':') ? `[${fields.host}]` : fields.host
  const query = [
    `schema=${fields.schemas.map(encodeURIComponent).join(',')}`,
    `sslmode=${encodeURIComponent(fields.sslmode)}`,
  ].join('&')
  return `postgresql://${encodeURIComponent(fields.user)}@${host}:${fields.port}/${encodeURIComponent(fields.database)}?${query}`
}

/**
 * The decision for the local service: over a database for a PostGIS workspace profile (its keychain password
 * in the environment, when one is set), over its folder for any other profile (null).
 */
export function localServiceDatabase(profile: Profile, password: string | null): LocalServiceDatabase | null {
  if (profile.kind !== 'postgis' || !profile.postgis) return null
  return { databaseUri: databaseUriOf(profile.postgis), env: password ? { PGPASSWORD: password } : {} }
}
