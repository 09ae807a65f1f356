// `geo-analyst call`'s work (`call.ts` declares the command): the contract's operation tables, the client
// and its transport, loaded when a call runs or its help is asked for (a chunk of the built CLI).
import { promises as fs } from 'node:fs'
import path from 'node:path'
import {
  BASE_URL_KEYS,
  baseUrlSchema,
  INTERFACE_OPERATION_NAMES,
  interfaceOperation,
  isInterfaceOperationName,
  type BaseUrls,
  type CredentialName,
  type InterfaceOperationName,
} from '../../contract'
import type { InterfaceOperation } from '../../contract/operation'
import { writeFileAtomic } from '../../base/atomic-write'
import { GeoFailure } from '../../base/geo-failure'
import { toCli } from '../../core/http/copy-as-command'
import { Redactor } from '../../core/http/redactor'
import { resolveDataDir } from '../../core/paths'
import { RequestHistory } from '../../core/workspace/request-history'
import { stringFlag, type ParsedArgs } from '../args'
import type { CliContext } from '../context'
import { jsonOutput } from '../json-output'
import { parseAssignments, URL_ENV } from './call'
import { parseJsonText } from '../../contract/common/json-text'

/** The operations `geo-analyst call` runs, named `area.verb`: the contract's interface table. */
export const CALL_OPERATIONS: readonly InterfaceOperationName[] = INTERFACE_OPERATION_NAMES

/** Maximum size of a --body or --file input (64 MiB). */
const MAX_INPUT_BYTES = 64 * 1024 * 1024

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
    return parseJsonText(text)
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

/** How long an unknown alarm outcome keeps blocking an identical resubmission from the CLI. */
const UNKNOWN_OUTCOME_WINDOW_MS = 24 * 60 * 60 * 1000

async function recentUnknownOutcomes(history: RequestHistory): Promise<string[]> {
  const since = Date.now() - UNKNOWN_OUTCOME_WINDOW_MS
  return (await history.list(1000))
    .filter((e) => e.failureClass === 'unknown-outcome' && e.fingerprint && Date.parse(e.time) >= since)
    .map((e) => e.fingerprint as string)
}

/** One operation's parameters, as `call OPERATION --help` shows them. */
function operationHelp(name: InterfaceOperationName): string {
  const op = interfaceOperation(name)
  const params = op.params.map(
    (p) =>
      `    ${p.name}${p.required === true ? ' (required)' : p.required === 'conditional' ? ' (conditional)' : ''}`,
  )
  return [
    `Usage: geo-analyst call ${name} ${inputsOf(op)}`,
    `${op.summary} (spec §${op.section})`,
    ...(params.length ? ['Parameters (name=value):', ...params] : ['No parameters.']),
  ].join('\n')
}

function inputsOf(op: InterfaceOperation): string {
  return [
    op.params.length ? '[name=value ...]' : '',
    op.body ? '[--body FILE]' : '',
    op.file ? '--file FILE --out FILE' : '',
    op.changesState ? '[--confirm]' : '',
  ]
    .filter(Boolean)
    .join(' ')
}

/** Every operation, one line each, for `call --help`. */
function callHelp(): string {
  const width = Math.max(...INTERFACE_OPERATION_NAMES.map((n) => n.length))
  return [
    'Usage: geo-analyst call OPERATION [name=value ...] [--body FILE] [--file FILE] [--out FILE] [--profile P] [--confirm]',
    'Call one interface operation; JSON result on stdout. Operations:',
    ...INTERFACE_OPERATION_NAMES.map((n) => {
      const op = interfaceOperation(n)
      return `  ${n.padEnd(width)}  §${op.section.padEnd(5)} ${op.summary}`
    }),
    'geo-analyst call OPERATION --help lists its parameters.',
  ].join('\n')
}

/** Flags that do not fit the operation are refused by name before anything is read or sent. */
function refuseFlags(name: InterfaceOperationName, op: InterfaceOperation, args: ParsedArgs): void {
  const refuse = (flag: string) => {
    throw new GeoFailure('validation', `${name} takes no ${flag}`, { field: flag.replace(/^--/, '') })
  }
  if (stringFlag(args, 'file') !== undefined && !op.file) refuse('--file')
  if (stringFlag(args, 'body') !== undefined && !op.body) refuse('--body')
  if (args.flags.confirm === true && !op.changesState) refuse('--confirm')
  if (op.file && !stringFlag(args, 'out'))
    throw new GeoFailure('validation', `${name} needs --out FILE for the result`, { field: 'out' })
}

/** `call --help` or `call OPERATION --help`. */
export function callHelpFor(args: ParsedArgs): string {
  const op = args.positionals[0]
  return op && isInterfaceOperationName(op) ? operationHelp(op) : callHelp()
}

/** `geo-analyst call OPERATION …`. */
export async function runCall(ctx: CliContext, args: ParsedArgs): Promise<void> {
  const [op, ...words] = args.positionals
  if (!op || !isInterfaceOperationName(op)) {
    throw new GeoFailure(
      'validation',
      `${op ? `unknown operation "${op.slice(0, 60)}"; ` : ''}OPERATION must be one of ${CALL_OPERATIONS.join(', ')}`,
      { field: 'OPERATION' },
    )
  }
  const descriptor = interfaceOperation(op)
  refuseFlags(op, descriptor, args)
  const params = parseAssignments(words)
  const profileFlag = stringFlag(args, 'profile')
  const redactor = new Redactor()
  const envToken = ctx.env.GEO_ANALYST_TOKEN
  const envKey = ctx.env.GEO_ANALYST_LICENCE_KEY
  if (envToken) redactor.remember(envToken)
  if (envKey) redactor.remember(envKey)
  const history = new RequestHistory(resolveDataDir({ env: ctx.env }), redactor)
  // The client and its transport are loaded when a call runs (a chunk of the built CLI).
  const [{ createClient }, { CLIENT_CALLS }] = await Promise.all([
    import('../../core/client/create-client'),
    import('../../core/client/calls'),
  ])
  const client = createClient({
    urls: () => resolveUrls(ctx, profileFlag),
    caCertificate: async () =>
      allUrlsFromEnv(ctx) ? undefined : (await ctx.profileForCall(profileFlag)).caCertificate,
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
    // Each CLI run is its own process: state changes whose outcome became unknown in the last day count as
    // this session's, so an identical resubmission is refused unless --confirm.
    unknownOutcomes: descriptor.changesState ? await recentUnknownOutcomes(history) : [],
  })
  const body = stringFlag(args, 'body')
  const file = stringFlag(args, 'file')
  const result = await CLIENT_CALLS[op](client, {
    params,
    ...(body ? { body: await readJson(body) } : {}),
    ...(file
      ? {
          file: { fileName: path.basename(file), bytes: new Uint8Array(await readInput(file, '--file')) },
        }
      : {}),
    confirm: args.flags.confirm === true,
  })
  if (!result.ok) {
    const { failureClass, message, ...extra } = result.error
    throw new GeoFailure(failureClass, redactor.redact(message), extra)
  }
  const out = stringFlag(args, 'out')
  const value = result.value
  if (out) {
    const binary =
      typeof value === 'object' && value !== null && 'bytes' in value && value.bytes instanceof Uint8Array
    // A JSON result as stdout would show it: a join's rows as their array, not their bytes.
    const data = binary ? (value as { bytes: Uint8Array }).bytes : jsonOutput(value)
    await writeFileAtomic(path.resolve(out), data, { mode: 0o644 })
    const summary = {
      operation: op,
      written: path.resolve(out),
      bytes: data.byteLength,
      ...(binary ? { contentType: (value as unknown as { contentType: string }).contentType } : {}),
    }
    ctx.stdout.write(jsonOutput(summary))
    return
  }
  ctx.stdout.write(jsonOutput(value))
  if (!ctx.json && ctx.stderr) {
    // Reproducible: the same call as a command line, redacted, on stderr so stdout stays pure JSON.
    ctx.stderr.write(
      `# ${toCli(op, params, redactor, { body: stringFlag(args, 'body'), file: stringFlag(args, 'file') })}\n`,
    )
  }
}
