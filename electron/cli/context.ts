import type { Readable, Writable } from 'node:stream'
import type { OperationName, OperationResponse, Profile } from '../contract'
import type { Core } from '../core/app-core'
import { GeoFailure } from '../base/geo-failure'
import type { SecretStore } from '../core/secrets/secret-store'
import { resolveDataDir, resolveWorkspaceDir } from '../core/paths'
import type { ParsedArgs, FlagKind } from './args'
import { jsonOutput } from './json-output'

export interface CliIo {
  stdin: Readable & { isTTY?: boolean }
  stdout: Writable
  stderr: Writable
  env: NodeJS.ProcessEnv
}

export interface CliContext extends CliIo {
  json: boolean
  configDir: string
  version: string
  /** The shared core, created on first use. */
  core(): Promise<Core>
  /**
   * The named (or active) profile, with the built-in local service started in this process first when
   * the profile is Local, so its URLs and credentials are there.
   */
  profileForCall(name?: string): Promise<Profile>
  /** Stop what this invocation started. */
  close(): Promise<void>
  /** Run an operation of the contract through the same guarded entry as every host. */
  invoke<K extends OperationName>(name: K, payload: unknown): Promise<OperationResponse<K>>
  /** JSON on stdout with --json (`jsonOutput`: a join's rows as their array, never bytes); the human text otherwise. */
  print(value: unknown, human: string): void
  /**
   * One update of a command that goes on printing (`--watch`): with --json one JSON document on one line (a
   * script reads the stream as JSON lines); the human text otherwise.
   */
  printUpdate(value: unknown, human: string): void
  warn(line: string): void
}

export interface CliCommand {
  /** One or two words, e.g. `profile list`. */
  name: string
  /** Former names it still answers to (e.g. `fleet devices` for `telematics devices`). */
  aliases?: readonly string[]
  summary: string
  usage: string
  flags?: Record<string, FlagKind>
  /** The text of `--help` when the usage line is not enough (e.g. derived from a table). */
  help?(args: ParsedArgs): string | Promise<string>
  run(ctx: CliContext, args: ParsedArgs): Promise<void>
}

export function createCliContext(
  io: CliIo,
  options: { json: boolean; configDir: string; version: string; secretStore?: SecretStore },
): CliContext {
  let core: Promise<Core> | undefined
  const ctx: CliContext = {
    ...io,
    json: options.json,
    configDir: options.configDir,
    version: options.version,
    core() {
      // The core and the local service are loaded when a command first needs them (a chunk of the built
      // CLI): commands that need neither start without their modules and packages.
      core ??= import('../core/app-core')
        .then(({ createCore }) =>
          createCore({
            configDir: options.configDir,
            host: 'cli',
            version: options.version,
            secretStore: options.secretStore,
            // An active PostGIS workspace profile names the database; its password only in the service's env.
            startLocalService: async (database) =>
              (await import('../local-service')).startLocalService({
                workspaceDir: resolveWorkspaceDir({ env: io.env }),
                ...(database
                  ? { databaseUri: database.databaseUri, env: { ...io.env, ...database.env } }
                  : {}),
              }),
            dataDir: resolveDataDir({ env: io.env }),
          }),
        )
        .then((created) => {
          // Whichever command meets an unreadable settings file says so, once, before its answer.
          created.settings.onRecovered((notice) => ctx.warn(notice))
          return created
        })
      return core
    },
    async profileForCall(name) {
      const c = await ctx.core()
      const profile = name ? await c.settings.profile(name) : await c.settings.activeProfile()
      if (!profile.builtIn || profile.urls) return profile
      await c.ensureLocalService()
      return c.settings.profile(profile.name)
    },
    async close() {
      if (core) await (await core).close()
    },
    async invoke(name, payload) {
      const result = await (await ctx.core()).invoke(name, payload)
      if (!result.ok) {
        const { failureClass, message, ...extra } = result.error
        throw new GeoFailure(failureClass, message, extra)
      }
      return result.value
    },
    print(value, human) {
      io.stdout.write(options.json ? jsonOutput(value) : human.endsWith('\n') ? human : human + '\n')
    },
    printUpdate(value, human) {
      if (options.json) io.stdout.write(jsonOutput(value, { compact: true }))
      else ctx.print(value, human)
    },
    warn(line) {
      io.stderr.write(`geo-analyst: warning: ${line}\n`)
    },
  }
  return ctx
}
