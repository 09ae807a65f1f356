import type { DatabaseProblemName } from '../../contract/app/postgis'
import type { LocalServiceDatabase } from './postgis-profile'

/** What a connection check found, or the problem in plain words (never a password). */
export type PostgisCheckResult =
  | {
      ok: true
      database: string
      user: string
      postgisVersion: string
      schemas: string[]
      datasets: number
    }
  | { ok: false; problem: DatabaseProblemName; message: string }

/**
 * How the core reaches a PostGIS database for "Test connection": the host gives it (the core never imports
 * the local service, which owns the database code), given the URI and the password's environment.
 */
export interface PostgisCheckPort {
  check(connection: LocalServiceDatabase): Promise<PostgisCheckResult>
}
