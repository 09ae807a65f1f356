import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { Geometry } from 'geojson'
import { expect } from 'vitest'
import { findCommand } from '../../electron/cli/run'
import { BASE_URLS, type BaseUrlKey } from '../../electron/contract'
import { startLocalService, type LocalService } from '../../electron/local-service/index'
import type { DatasetFeature } from '../../electron/local-service/workspace/features'
import { Workspace } from '../../electron/local-service/workspace/workspace'

/**
 * The CLI's output read as a script reads it: with --json, stdout through `JSON.parse`, every value plain
 * JSON (no byte array printed as a map of numbers); without, text a person reads (no `[object Object]`, no
 * byte maps, the values that matter in it). And one built-in local service per test file for the commands
 * to talk to.
 */

export interface CliOutput {
  code: number | null
  stdout: string
  stderr: string
}

/** What bytes or a Buffer look like after a naive JSON.stringify: {"0": 91, "1": 123, …} or {type, data}. */
function byteMapAt(value: unknown, at: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = byteMapAt(item, `${at}[${i}]`)
      if (found) return found
    }
    return undefined
  }
  const record = value as Record<string, unknown>
  const keys = Object.keys(record)
  if (keys.length > 0 && keys.every((k, i) => k === String(i) && Number.isInteger(record[k])))
    return `${at} is a map of indexes to numbers (bytes?): ${JSON.stringify(record).slice(0, 80)}`
  if (record.type === 'Buffer' && Array.isArray(record.data)) return `${at} is a serialised Buffer`
  for (const key of keys) {
    const found = byteMapAt(record[key], `${at}.${key}`)
    if (found) return found
  }
  return undefined
}

/** Fails naming the place when any value of `value` is a byte map. */
export function expectPlainJson(value: unknown, what: string): void {
  expect(byteMapAt(value, '$'), what).toBeUndefined()
}

/** A run that succeeded, its stdout parsed as one JSON document (as `JSON.parse` in a script). */
export function scriptJson<T = unknown>(run: CliOutput, what: string): T {
  expect(run.code, `${what} exited ${run.code}: ${run.stderr}`).toBe(0)
  let parsed: unknown
  try {
    parsed = JSON.parse(run.stdout)
  } catch (error) {
    throw new Error(
      `${what}: stdout is not one JSON document (${(error as Error).message}): ${run.stdout.slice(0, 200)}`,
    )
  }
  expectPlainJson(parsed, what)
  return parsed as T
}

/** stdout of `--watch --json`: one JSON document per line. */
export function scriptJsonLines<T = unknown>(run: CliOutput, what: string): T[] {
  expect(run.code, `${what} exited ${run.code}: ${run.stderr}`).toBe(0)
  expect(run.stdout.endsWith('\n'), `${what}: the last line is complete`).toBe(true)
  return run.stdout
    .slice(0, -1)
    .split('\n')
    .map((line, i) => {
      const parsed = JSON.parse(line) as unknown
      expectPlainJson(parsed, `${what}, line ${i + 1}`)
      return parsed as T
    })
}

/**
 * A run that succeeded, its stdout human text: not JSON, no `[object …]`, `undefined`, `NaN` or byte map,
 * ending with a newline, and holding every `expected` piece. Returns the text.
 */
export function humanText(run: CliOutput, what: string, ...expected: Array<string | RegExp>): string {
  expect(run.code, `${what} exited ${run.code}: ${run.stderr}`).toBe(0)
  const text = run.stdout
  expect(text.trim().length, `${what}: prints something`).toBeGreaterThan(0)
  expect(text.endsWith('\n'), `${what}: ends its last line`).toBe(true)
  expect(text, what).not.toMatch(/\[object \w+\]|\bundefined\b|\bNaN\b|\\u0000/)
  expect(text, `${what}: no byte map`).not.toMatch(/"bytes"|\{\s*"0":|"0":\s*\d+,\s*"1":\s*\d+/)
  expect(/^\s*[[{]/.test(text) && isJson(text), `${what}: text for a person, not JSON`).toBe(false)
  for (const piece of expected) {
    if (typeof piece === 'string') expect(text, what).toContain(piece)
    else expect(text, what).toMatch(piece)
  }
  return text
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

export const SCRIPT_TOKEN = 'cli-script-token-4f1c9a7e2b'
export const SCRIPT_LICENCE_KEY = 'cli-script-licence-key-8d3e'

export interface ScriptService {
  service: LocalService
  /** A temp folder for the test's files (config, data, inputs, outputs). */
  dir: string
  workspaceDir: string
  /**
   * The environment of a script: its own config and data folders, the service's workspace, and (for
   * `geo-analyst call`) the service's six base URLs, token and licence key.
   */
  env: NodeJS.ProcessEnv
  /** `profile set` flags pointing a profile at the service. */
  profileFlags: string[]
  close(): Promise<void>
}

/** The built-in local service on 127.0.0.1 over a temp workspace holding `datasets`, for one test file. */
export async function startScriptService(datasets: Record<string, DatasetFeature[]>): Promise<ScriptService> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'geo-cli-script-'))
  const workspaceDir = path.join(dir, 'workspace')
  const workspace = new Workspace(workspaceDir)
  for (const [name, features] of Object.entries(datasets))
    await workspace.create(name, features, { source: 'cli-script test' })
  const service = await startLocalService({
    workspaceDir,
    token: SCRIPT_TOKEN,
    licenceKey: SCRIPT_LICENCE_KEY,
    sampleData: false,
  })
  const urls = Object.entries(service.urls) as Array<[BaseUrlKey, string]>
  return {
    service,
    dir,
    workspaceDir,
    env: {
      GEO_ANALYST_CONFIG_DIR: path.join(dir, 'config'),
      GEO_ANALYST_DATA_DIR: path.join(dir, 'data'),
      GEO_ANALYST_WORKSPACE: workspaceDir,
      GEO_ANALYST_TOKEN: SCRIPT_TOKEN,
      GEO_ANALYST_LICENCE_KEY: SCRIPT_LICENCE_KEY,
      ...Object.fromEntries(urls.map(([key, url]) => [BASE_URLS[key].env, url])),
    },
    profileFlags: urls.flatMap(([key, url]) => [`--${key.replace(/_/g, '-')}`, url]),
    async close() {
      await service.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/**
 * One image blurred straight through the service's HTTP interface, without the client's per-attempt
 * timeout: the plate model is loaded before the commands under test are timed by the client.
 */
export async function warmUpVision(svc: ScriptService, image: string): Promise<void> {
  const form = new FormData()
  form.append('file', new Blob([await readFile(image)], { type: 'image/jpeg' }), path.basename(image))
  const answer = await fetch(`${svc.service.urls.aiml_url}/license_plate_blur_pano`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${svc.service.token}` },
  })
  if (!answer.ok) throw new Error(`warming the plate model: HTTP ${answer.status}`)
  await answer.arrayBuffer()
}

const square = (x0: number, y0: number, x1: number, y1: number): Geometry => ({
  type: 'Polygon',
  coordinates: [
    [
      [x0, y0],
      [x1, y0],
      [x1, y1],
      [x0, y1],
      [x0, y0],
    ],
  ],
})

/** Wells (points) and the zones (polygons) they lie in, near Delhi: a join of wells Within zones has 3 rows. */
export const WELLS_AND_ZONES: Record<string, DatasetFeature[]> = {
  wells: [
    {
      geometry: { type: 'Point', coordinates: [77.21, 28.61] },
      properties: { name: 'North well', depth: 12.5 },
    },
    {
      geometry: { type: 'Point', coordinates: [77.22, 28.62] },
      properties: { name: 'Temple well', depth: 40 },
    },
    { geometry: { type: 'Point', coordinates: [77.41, 28.41] }, properties: { name: 'Farm well', depth: 7 } },
    { geometry: { type: 'Point', coordinates: [70, 20] }, properties: { name: 'Sea well', depth: 1 } },
  ],
  zones: [
    { geometry: square(77.2, 28.6, 77.3, 28.7), properties: { label: 'Old town' } },
    { geometry: square(77.4, 28.4, 77.5, 28.5), properties: { label: 'Fields' } },
  ],
}

/** The join a script runs on `WELLS_AND_ZONES`: each well's name and depth with its zone's label. */
export const WELLS_IN_ZONES = [
  'queryType=spatialOperation',
  'datasetSource=wells',
  'datasetRef=zones',
  'operator=Within',
  'sourceProperty=geom',
  'selectionParamSource=name,depth',
  'selectionParamRef=label',
]

/** The rows that join gives, in any order. */
export const WELLS_IN_ZONES_ROWS = [
  { prop1: 'North well', prop2: '12.5', prop3: 'Old town' },
  { prop1: 'Temple well', prop2: '40', prop3: 'Old town' },
  { prop1: 'Farm well', prop2: '7', prop3: 'Fields' },
]

/**
 * Which commands each output test file reads, by file: together every command of `geo-analyst`, each with
 * --json and without (the app-output file checks that the lists cover `COMMANDS`, each file that it ran its
 * list).
 */
export const OUTPUT_TESTED: Readonly<Record<string, readonly string[]>> = {
  'call-output': ['call'],
  'workspace-gis-output': [
    'import',
    'datasets',
    'export',
    'gis import',
    'gis datasets',
    'gis export',
    'gis layers',
    'gis join',
  ],
  'areas-output': [
    'places standardize',
    'places suggest',
    'places geocode',
    'routing matrix',
    'routing import',
    'routing networks',
    'routing remove',
    'telematics devices',
    'telematics alarm',
    'telematics alerts',
    'telematics hardware',
    'telematics replay',
    'vision blur',
  ],
  'users-output': ['users add', 'users list', 'users revoke'],
  'app-output': [
    'profile list',
    'profile show',
    'profile use',
    'profile set',
    'profile delete',
    'secret set',
    'secret status',
    'secret clear',
    'serve',
    'history',
    'project list',
    'project check',
  ],
}

/** The commands a test file ran, each noted with --json or without. */
export class CommandLog {
  private readonly ran = new Set<string>()

  note(argv: readonly string[]): void {
    const firstFlag = argv.findIndex((a) => a.startsWith('--'))
    const found = findCommand(firstFlag === -1 ? argv : argv.slice(0, firstFlag))
    if (found) this.ran.add(`${found.command.name}${argv.includes('--json') ? ' --json' : ''}`)
  }

  /** Of `names`, each not run both with --json and without. */
  missing(names: readonly string[]): string[] {
    return names.flatMap((n) => [n, `${n} --json`]).filter((n) => !this.ran.has(n))
  }
}

/** A `geo-analyst` process that goes on running (`serve`): its output so far, a wait for it, a stop. */
export interface RunningCli {
  child: ChildProcess
  stdout(): string
  /** Until stdout satisfies `ready`, or fails after `timeoutMs` naming what came. */
  waitFor(ready: (stdout: string) => boolean, timeoutMs?: number): Promise<string>
  /** SIGTERM, then the exit code (SIGKILL after 10 s). */
  stop(): Promise<number | null>
}

export function startCliProcess(args: string[], env: NodeJS.ProcessEnv = {}): RunningCli {
  const root = path.resolve(import.meta.dirname, '../..')
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'electron/cli/main.ts'), ...args],
    {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let out = ''
  let err = ''
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()))
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return {
    child,
    stdout: () => out,
    waitFor(ready, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          clearInterval(poll)
          reject(new Error(`geo-analyst ${args.join(' ')}: not ready in ${timeoutMs} ms: ${out}${err}`))
        }, timeoutMs)
        const poll = setInterval(() => {
          if (!ready(out)) return
          clearInterval(poll)
          clearTimeout(timer)
          resolve(out)
        }, 50)
      })
    },
    async stop() {
      child.kill('SIGTERM')
      const kill = setTimeout(() => child.kill('SIGKILL'), 10_000)
      const code = await exited
      clearTimeout(kill)
      return code
    },
  }
}
