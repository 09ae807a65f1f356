import { BASE_URL_KEYS, BASE_URLS } from '../../contract/groups'
import type { BaseUrls } from '../../contract/settings'
import { GeoFailure } from '../../base/geo-failure'
import type { CliCommand } from '../context'

/** Environment overrides for scripts and CI, one per spec placeholder. */
export const URL_ENV = Object.fromEntries(BASE_URL_KEYS.map((k) => [k, BASE_URLS[k].env])) as Readonly<
  Record<keyof BaseUrls, string>
>

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

/** The command's work and help (`call-run.ts`: the operation tables and the client), loaded when it runs. */
const running = () => import('./call-run')

export const callCommands: CliCommand[] = [
  {
    name: 'call',
    summary: 'Call one interface operation; JSON result on stdout',
    usage:
      'call OPERATION [name=value ...] [--body FILE] [--file FILE] [--out FILE] [--profile P] [--confirm]',
    flags: { body: 'string', file: 'string', out: 'string', profile: 'string', confirm: 'boolean' },
    help: async (args) => (await running()).callHelpFor(args),
    run: async (ctx, args) => (await running()).runCall(ctx, args),
  },
]
