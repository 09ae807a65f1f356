import { classifyDatabaseError, type DatabaseProblem } from './postgis/errors'
import { DatabaseWorkspaceError, PostgisWorkspace } from './postgis/workspace'

/** A database to check: its URI (no password in it) and the environment that carries the password. */
export interface DatabaseToCheck {
  databaseUri: string
  env: { PGPASSWORD?: string }
}

/** What the check found, or the problem in plain words (the core's PostgisCheckPort takes this shape). */
export type DatabaseCheckResult =
  | { ok: true; database: string; user: string; postgisVersion: string; schemas: string[]; datasets: number }
  | { ok: false; problem: DatabaseProblem; message: string }

/**
 * The environment a profile's check connects with: the profile names host, port, database, user and schemas,
 * so of the process's variables only where libpq finds its password and root-certificate files are kept
 * (a stray PGPASSWORD or PGSERVICE of the shell must not stand in for the profile's keychain password).
 */
function checkEnv(database: DatabaseToCheck, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {}
  for (const name of ['HOME', 'PGPASSFILE', 'PGSSLROOTCERT'] as const) if (env[name]) kept[name] = env[name]
  return { ...kept, ...database.env }
}

/**
 * "Test connection" of a PostGIS workspace profile, for the hosts that run the local service's code (the
 * desktop app, the browser host), given to the core as its `postgisCheck` port:
 * connect as the local service would, check PostGIS and every schema, count the datasets from the catalogs,
 * close. Every problem comes back classified in plain words, never with the password.
 */
export function postgisCheck(env: NodeJS.ProcessEnv = process.env): {
  check(database: DatabaseToCheck): Promise<DatabaseCheckResult>
} {
  return {
    async check(database) {
      let workspace: PostgisWorkspace
      try {
        workspace = PostgisWorkspace.fromUri(database.databaseUri, { env: checkEnv(database, env) })
      } catch (error) {
        return { ok: false, problem: 'other', message: (error as Error).message }
      }
      try {
        const found = await workspace.checked()
        const datasets = await workspace.list()
        return {
          ok: true,
          database: found.database,
          user: found.user,
          postgisVersion: found.postgisVersion,
          schemas: [...workspace.uri.schemas],
          datasets: datasets.length,
        }
      } catch (error) {
        const problem =
          error instanceof DatabaseWorkspaceError ? error : classifyDatabaseError(error, workspace.target)
        return { ok: false, problem: problem.problem, message: problem.message }
      } finally {
        await workspace.close()
      }
    },
  }
}
