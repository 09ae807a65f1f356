import { GeoFailure } from '../base/geo-failure'

export type FlagKind = 'string' | 'boolean'

export interface ParsedArgs {
  positionals: string[]
  flags: Record<string, string | boolean>
}

/**
 * Parse `--name value`, `--name=value` and boolean `--name` flags against a declared set; anything
 * undeclared is an error naming it, so a typo never silently does something else.
 */
export function parseArgs(argv: readonly string[], declared: Record<string, FlagKind>): ParsedArgs {
  const positionals: string[] = []
  const flags: Record<string, string | boolean> = {}
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1))
      break
    }
    if (!arg.startsWith('--') || arg === '-') {
      positionals.push(arg)
      continue
    }
    const eq = arg.indexOf('=')
    const name = arg.slice(2, eq === -1 ? undefined : eq)
    const kind = declared[name]
    if (!kind) throw new GeoFailure('validation', `Unknown option --${name}`, { field: name })
    if (kind === 'boolean') {
      if (eq !== -1) throw new GeoFailure('validation', `Option --${name} takes no value`, { field: name })
      flags[name] = true
      continue
    }
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1)
    if (value === undefined || (eq === -1 && value.startsWith('--'))) {
      throw new GeoFailure('validation', `Option --${name} needs a value`, { field: name })
    }
    flags[name] = value
  }
  return { positionals, flags }
}

export function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags[name]
  return typeof value === 'string' ? value : undefined
}
