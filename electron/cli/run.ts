import { GeoFailure } from '../base/geo-failure'
import { resolveConfigDir } from '../core/paths'
import type { SecretStore } from '../core/secrets/secret-store'
import { parseArgs } from './args'
import { COMMANDS } from './commands'
import { createCliContext, type CliCommand, type CliIo } from './context'
import { EXIT_BY_CLASS } from './exit-codes'

const GLOBAL_FLAGS = { json: 'boolean', 'config-dir': 'string', help: 'boolean' } as const

export function findCommand(words: readonly string[]): { command: CliCommand; rest: string[] } | undefined {
  for (const length of [2, 1]) {
    const name = words.slice(0, length).join(' ')
    const command = COMMANDS.find((c) => c.name === name || c.aliases?.includes(name))
    if (command && words.length >= length) return { command, rest: words.slice(length) as string[] }
  }
  return undefined
}

export function usage(): string {
  return [
    'Usage: geo-analyst COMMAND [options] [--json] [--config-dir DIR]',
    '',
    ...COMMANDS.map(
      (c) => `  ${c.usage}\n      ${c.summary}${c.aliases ? ` (also: ${c.aliases.join(', ')})` : ''}`,
    ),
    '',
    'Exit codes: 0 ok, 1 unexpected, 2 validation or local configuration, 3 authentication or authorization,',
    '4 not found, 5 conflict or unknown outcome, 6 rate-limited, timeout or provider unavailable.',
  ].join('\n')
}

/** Run one CLI invocation; returns the exit code. Errors are one line on stderr, never a stack. */
export async function runCli(
  argv: readonly string[],
  io: CliIo,
  options: { version: string; secretStore?: SecretStore },
): Promise<number> {
  // Words before the first flag choose the command; all flags are parsed against its declared set.
  const firstFlag = argv.findIndex((a) => a.startsWith('--'))
  const words = firstFlag === -1 ? [...argv] : argv.slice(0, firstFlag)
  const found = findCommand(words)
  try {
    if (!found) {
      if (argv.length === 0 || argv.includes('--help') || argv[0] === 'help') {
        io.stdout.write(usage() + '\n')
        return 0
      }
      throw new GeoFailure('validation', `Unknown command "${words.join(' ')}"; run geo-analyst --help`)
    }
    const { command, rest } = found
    const args = parseArgs([...rest, ...(firstFlag === -1 ? [] : argv.slice(firstFlag))], {
      ...GLOBAL_FLAGS,
      ...command.flags,
    })
    if (args.flags.help) {
      io.stdout.write(
        ((await command.help?.(args)) ?? `Usage: geo-analyst ${command.usage}\n${command.summary}`) + '\n',
      )
      return 0
    }
    const configDir = resolveConfigDir({
      flag: typeof args.flags['config-dir'] === 'string' ? args.flags['config-dir'] : undefined,
      env: io.env,
    })
    const ctx = createCliContext(io, {
      json: args.flags.json === true,
      configDir,
      version: options.version,
      secretStore: options.secretStore,
    })
    try {
      await command.run(ctx, args)
    } finally {
      await ctx.close()
    }
    return 0
  } catch (error) {
    if (error instanceof GeoFailure) {
      io.stderr.write(`geo-analyst: ${error.error.failureClass}: ${oneLine(error.message)}\n`)
      return EXIT_BY_CLASS[error.error.failureClass]
    }
    io.stderr.write(
      `geo-analyst: unexpected: ${oneLine(error instanceof Error ? error.message : String(error))}\n`,
    )
    return 1
  }
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim()
}
