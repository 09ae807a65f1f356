import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { BASE_URL_KEYS, type BaseUrlKey } from '../../electron/contract'
import { runCliProcess, type CliRun } from './cli'

const ROOT = path.resolve(import.meta.dirname, '../..')

/** One `geo-analyst serve` process of a team server: TLS on 127.0.0.1, its users file, a PostGIS workspace. */
export interface TeamServerInstance {
  /** The six base URLs it printed (https://127.0.0.1:PORT/…). */
  urls: Record<BaseUrlKey, string>
  port: number
  /** What it wrote on stdout and stderr so far. */
  output(): string
  stop(): Promise<void>
}

export interface TeamServerOptions {
  workspaceUri: string
  usersFile: string
  certFile: string
  keyFile: string
  /** Its folder workspace (joins, the audit log) and anything else it keeps per machine. */
  workspaceDir: string
  env?: NodeJS.ProcessEnv
}

/**
 * Start `geo-analyst serve --listen 127.0.0.1:0 --tls-cert … --tls-key … --users … --workspace postgresql://…
 * --json` as its own process, as an administrator would, and read the URLs it prints.
 */
export async function startTeamServer(options: TeamServerOptions): Promise<TeamServerInstance> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(ROOT, 'electron/cli/main.ts'),
      'serve',
      '--listen',
      '127.0.0.1:0',
      '--tls-cert',
      options.certFile,
      '--tls-key',
      options.keyFile,
      '--users',
      options.usersFile,
      '--workspace',
      options.workspaceUri,
      '--no-sample',
      '--json',
    ],
    {
      cwd: ROOT,
      env: { ...process.env, GEO_ANALYST_WORKSPACE: options.workspaceDir, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()))
  const output = () => `${stdout}${stderr}`
  const printed = await new Promise<{ urls: Record<BaseUrlKey, string>; port: number }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`serve did not print its URLs in 60 s:\n${output()}`)),
      60_000,
    )
    const check = () => {
      try {
        const value = JSON.parse(stdout) as { urls: Record<BaseUrlKey, string>; port: number }
        clearTimeout(timer)
        resolve(value)
      } catch {
        // not all of it yet
      }
    }
    child.stdout?.on('data', check)
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`serve exited with ${code}:\n${output()}`))
    })
  })
  for (const key of BASE_URL_KEYS)
    if (!printed.urls[key]?.startsWith(`https://127.0.0.1:${printed.port}`))
      throw new Error(`serve printed no HTTPS ${key}:\n${output()}`)
  return {
    ...printed,
    output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))])
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    },
  }
}

/** A user added with `geo-analyst users add`, and the secrets it printed once. */
export interface AddedUser {
  name: string
  token: string
  licenceKey: string
}

/** `geo-analyst users add NAME [--read-only] --file USERS_FILE --json`, as an administrator would. */
export async function addTeamUser(
  usersFile: string,
  name: string,
  options: { readOnly?: boolean } = {},
): Promise<AddedUser> {
  const run = await runCliProcess([
    'users',
    'add',
    name,
    ...(options.readOnly ? ['--read-only'] : []),
    '--file',
    usersFile,
    '--json',
  ])
  if (run.code !== 0) throw new Error(`users add ${name} failed (${run.code}): ${run.stderr}`)
  const added = JSON.parse(run.stdout) as { name: string; token: string; licenceKey: string }
  return { name: added.name, token: added.token, licenceKey: added.licenceKey }
}

/** `profile set NAME --atlas-url … (all six) --ca-cert FILE`: a remote profile for one instance. */
export function setRemoteProfile(
  configDir: string,
  name: string,
  urls: Record<BaseUrlKey, string>,
  caFile: string,
  env: NodeJS.ProcessEnv = {},
): Promise<CliRun> {
  return runCliProcess(
    [
      'profile',
      'set',
      name,
      ...BASE_URL_KEYS.flatMap((key) => [`--${key.replace(/_/g, '-')}`, urls[key]]),
      '--ca-cert',
      caFile,
      '--config-dir',
      configDir,
    ],
    { env },
  )
}
