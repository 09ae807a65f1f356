import { promises as fs } from 'node:fs'
import path from 'node:path'
import { BASE_URL_KEYS, baseUrlSchema, type BaseUrls, type CredentialName, type Result } from '../../contract'
import { createClient, type Client } from '../../core/client/create-client'
import { writeFileAtomic } from '../../core/fs/atomic-write'
import { GeoFailure } from '../../core/geo-failure'
import { toCli } from '../../core/http/copy-as-command'
import { Redactor } from '../../core/http/redactor'
import { resolveDataDir } from '../../core/paths'
import { RequestHistory } from '../../core/workspace/request-history'
import { stringFlag, type ParsedArgs } from '../args'
import type { CliCommand, CliContext } from '../context'

/** The operations `geo-analyst call` runs, named `group.verb`. */
export const CALL_OPERATIONS = [
  'places.standardize',
  'places.autosuggest',
  'routing.matrix',
  'routing.predictive',
  'gis.layers',
  'gis.join',
  'telematics.devices',
  'telematics.alarm',
  'telematics.hardware',
  'vision.blurPlates',
] as const
export type CallOperation = (typeof CALL_OPERATIONS)[number]

/** Environment overrides for scripts and CI, one per spec placeholder. */
export const URL_ENV: Readonly<Record<keyof BaseUrls, string>> = {
  atlas_url: 'GEO_ANALYST_ATLAS_URL',
  advancedmaps_url: 'GEO_ANALYST_ADVANCEDMAPS_URL',
  mgis_url: 'GEO_ANALYST_MGIS_URL',
  mgis_v2_url: 'GEO_ANALYST_MGIS_V2_URL',
  telematics_url: 'GEO_ANALYST_TELEMATICS_URL',
  aiml_url: 'GEO_ANALYST_AIML_URL',
}

/** Maximum size of a --body or --file input (64 MiB). */
const MAX_INPUT_BYTES = 64 * 1024 * 1024

/** `name=value` words into parameters; a name given twice or a word without `=` is an error naming it. */
export function parseAssignments(words: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const word of words) {
    const eq = word.indexOf('=')
    if (eq <= 0)
      throw new GeoFailure('validation', `Expected name=value, got "${word.slice(0, 60)}"`, {
        field: word.slice(0, 60),
      })
    const name = word.slice(0, eq)
    if (Object.prototype.hasOwnProperty.call(out, name))
      throw new GeoFailure('validation', `${name} is given more than once`, { field: name })
    out[name] = word.slice(eq + 1)
  }
  return out
}

async function readInput(file: string, what: string): Promise<Buffer> {
  const stat = await fs.stat(file).catch(() => null)
  if (!stat?.isFile())
    throw new GeoFailure('validation', `${what} ${file} is not a readable file`, { field: what })
  if (stat.size > MAX_INPUT_BYTES)
    throw new GeoFailure('validation', `${what} ${file} is larger than ${MAX_INPUT_BYTES} bytes`, {
      field: what,
    })
  return fs.readFile(file)
}

async function readJson(file: string): Promise<unknown> {
  const text = (await readInput(file, '--body')).toString('utf8')
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new GeoFailure('validation', `--body ${file} is not valid JSON: ${(error as Error).message}`, {
      field: 'body',
    })
  }
}

/** The six GEO_ANALYST_*_URL overrides that are set, checked. */
function urlsFromEnv(ctx: CliContext): Partial<BaseUrls> {
  const fromEnv: Partial<BaseUrls> = {}
  for (const key of BASE_URL_KEYS) {
    const value = ctx.env[URL_ENV[key]]
    if (!value) continue
    if (!baseUrlSchema.safeParse(value).success) {
      throw new GeoFailure(
        'local-configuration',
        `${URL_ENV[key]} must be an absolute http(s) URL without user name or password`,
        { field: URL_ENV[key] },
      )
    }
    fromEnv[key] = value
  }
  return fromEnv
}

function allUrlsFromEnv(ctx: CliContext): boolean {
  const fromEnv = urlsFromEnv(ctx)
  return BASE_URL_KEYS.every((k) => fromEnv[k])
}

/**
 * Base URLs: the profile's, each overridable by its GEO_ANALYST_*_URL variable. The built-in local
 * service is started only when the call really goes to it: never when all six URLs come from the
 * environment, so its credentials can never travel to another server.
 */
async function resolveUrls(ctx: CliContext, profileName: string | undefined): Promise<BaseUrls | null> {
  const fromEnv = urlsFromEnv(ctx)
  if (BASE_URL_KEYS.every((k) => fromEnv[k])) return fromEnv as BaseUrls
  const profile = await ctx.profileForCall(profileName)
  return { ...(profile.urls ?? {}), ...fromEnv } as BaseUrls
}

async function profileFor(ctx: CliContext, flag: string | undefined): Promise<string> {
  if (allUrlsFromEnv(ctx)) {
    const core = await ctx.core()
    return flag ? (await core.settings.profile(flag)).name : (await core.settings.activeProfile()).name
  }
  return (await ctx.profileForCall(flag)).name
}

type Outcome = Result<unknown>

/** How long an unknown alarm outcome keeps blocking an identical resubmission from the CLI. */
const UNKNOWN_OUTCOME_WINDOW_MS = 24 * 60 * 60 * 1000

async function recentUnknownOutcomes(history: RequestHistory): Promise<string[]> {
  const since = Date.now() - UNKNOWN_OUTCOME_WINDOW_MS
  return (await history.list(1000))
    .filter((e) => e.failureClass === 'unknown-outcome' && e.fingerprint && Date.parse(e.time) >= since)
    .map((e) => e.fingerprint as string)
}

async function run(
  client: Client,
  op: CallOperation,
  params: Record<string, string>,
  args: ParsedArgs,
): Promise<Outcome> {
  const body = stringFlag(args, 'body')
  const file = stringFlag(args, 'file')
  const refuse = (flag: string) => {
    throw new GeoFailure('validation', `${op} takes no ${flag}`, { field: flag })
  }
  if (file && op !== 'vision.blurPlates') refuse('--file')
  if (body && !['gis.join', 'telematics.alarm'].includes(op)) refuse('--body')
  switch (op) {
    case 'places.standardize':
      return client.places.standardize(params)
    case 'places.autosuggest':
      return client.places.autosuggest(params)
    case 'routing.matrix':
      return client.routing.matrix(params)
    case 'routing.predictive':
      return client.routing.predictive(params)
    case 'gis.layers':
      if (Object.keys(params).length)
        throw new GeoFailure('validation', 'gis.layers takes no parameters', {
          field: Object.keys(params)[0],
        })
      return client.gis.layers()
    case 'gis.join':
      return client.gis.join(params, body ? await readJson(body) : undefined)
    case 'telematics.devices':
      return client.telematics.devices(params)
    case 'telematics.hardware':
      return client.telematics.hardware(params)
    case 'telematics.alarm': {
      const base = body ? await readJson(body) : {}
      if (typeof base !== 'object' || base === null || Array.isArray(base)) {
        throw new GeoFailure('validation', '--body for telematics.alarm must be a JSON object', {
          field: 'body',
        })
      }
      const { contentType, ...fields } = params
      if (contentType !== undefined && contentType !== 'json' && contentType !== 'form') {
        throw new GeoFailure('validation', 'contentType must be json or form', { field: 'contentType' })
      }
      return client.telematics.createAlarm(
        { ...(base as Record<string, unknown>), ...fields },
        {
          contentType: contentType as 'json' | 'form' | undefined,
          confirm: args.flags.confirm === true,
        },
      )
    }
    case 'vision.blurPlates': {
      if (Object.keys(params).length)
        throw new GeoFailure('validation', 'vision.blurPlates takes only --file', {
          field: Object.keys(params)[0],
        })
      if (!file)
        throw new GeoFailure('validation', 'vision.blurPlates needs --file IMAGE (.jpg, .jpeg or .png)', {
          field: 'file',
        })
      if (!stringFlag(args, 'out'))
        throw new GeoFailure('validation', 'vision.blurPlates needs --out FILE for the blurred image', {
          field: 'out',
        })
      return client.vision.blurPlates({
        fileName: path.basename(file),
        bytes: new Uint8Array(await readInput(file, '--file')),
      })
    }
  }
}

export const callCommands: CliCommand[] = [
  {
    name: 'call',
    summary: 'Call one interface operation; JSON result on stdout',
    usage:
      'call OPERATION [name=value ...] [--body FILE] [--file FILE] [--out FILE] [--profile P] [--confirm]',
    flags: { body: 'string', file: 'string', out: 'string', profile: 'string', confirm: 'boolean' },
    async run(ctx, args) {
      const [op, ...words] = args.positionals
      if (!op || !(CALL_OPERATIONS as readonly string[]).includes(op)) {
        throw new GeoFailure('validation', `OPERATION must be one of ${CALL_OPERATIONS.join(', ')}`, {
          field: 'OPERATION',
        })
      }
      const params = parseAssignments(words)
      const profileFlag = stringFlag(args, 'profile')
      const redactor = new Redactor()
      const envToken = ctx.env.GEO_ANALYST_TOKEN
      const envKey = ctx.env.GEO_ANALYST_LICENCE_KEY
      if (envToken) redactor.remember(envToken)
      if (envKey) redactor.remember(envKey)
      const history = new RequestHistory(resolveDataDir({ env: ctx.env }), redactor)
      const client = createClient({
        urls: () => resolveUrls(ctx, profileFlag),
        credential: async (name: CredentialName) => {
          const fromEnv = name === 'licence-key' ? envKey : name === 'token' ? envToken : undefined
          if (fromEnv) return fromEnv
          // With GEO_ANALYST_TOKEN set, group tokens from the keychain are not consulted: the override wins.
          if (envToken && name.startsWith('token.')) return null
          const core = await ctx.core()
          return core.credentials.reveal(await profileFor(ctx, profileFlag), name)
        },
        redactor,
        history,
        // Each CLI run is its own process: alarms whose outcome became unknown in the last day count as
        // this session's, so an identical resubmission is refused unless --confirm.
        unknownOutcomes: op === 'telematics.alarm' ? await recentUnknownOutcomes(history) : [],
      })
      const result = await run(client, op as CallOperation, params, args)
      if (!result.ok) {
        const { failureClass, message, ...extra } = result.error
        throw new GeoFailure(failureClass, redactor.redact(message), extra)
      }
      const out = stringFlag(args, 'out')
      const value = result.value
      if (out) {
        const binary =
          typeof value === 'object' && value !== null && 'bytes' in value && value.bytes instanceof Uint8Array
        const data = binary ? (value as { bytes: Uint8Array }).bytes : JSON.stringify(value, null, 2) + '\n'
        await writeFileAtomic(path.resolve(out), data, { mode: 0o644 })
        const summary = {
          operation: op,
          written: path.resolve(out),
          bytes: typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength,
          ...(binary ? { contentType: (value as unknown as { contentType: string }).contentType } : {}),
        }
        ctx.stdout.write(JSON.stringify(summary, null, 2) + '\n')
        return
      }
      ctx.stdout.write(JSON.stringify(value, null, 2) + '\n')
      if (!ctx.json && ctx.stderr) {
        // Reproducible: the same call as a command line, redacted, on stderr so stdout stays pure JSON.
        ctx.stderr.write(
          `# ${toCli(op, params, redactor, { body: stringFlag(args, 'body'), file: stringFlag(args, 'file') })}\n`,
        )
      }
    },
  },
]
