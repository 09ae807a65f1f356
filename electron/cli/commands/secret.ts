import type { SecretsStatus } from '../../contract'
import { CREDENTIAL_NAMES, isCredentialName } from '../../contract/credential-names'
import { GeoFailure } from '../../base/geo-failure'
import { stringFlag } from '../args'
import type { CliCommand, CliContext } from '../context'

const NAMES = CREDENTIAL_NAMES.join(', ')

function credentialName(value: string | undefined) {
  if (!isCredentialName(value))
    throw new GeoFailure('validation', `Credential NAME must be one of ${NAMES}`, { field: 'name' })
  return value
}

function statusText(status: SecretsStatus): string {
  const lines = status.credentials.map(
    (c) => `  ${c.name.padEnd(17)}${c.set ? `set${c.updatedAt ? ` (${c.updatedAt})` : ''}` : 'not set'}`,
  )
  const head =
    status.store === 'session-memory'
      ? `Profile ${status.profile}, stored for this session only (no keychain):`
      : status.warning
        ? `Profile ${status.profile}: the OS keychain cannot be used now (see the warning); as last set here:`
        : `Profile ${status.profile}, stored in OS keychain:`
  return [head, ...lines].join('\n')
}

/** Read one line from stdin: the secret never comes from argv, where process lists and shell history see it. */
export async function readSecretFromStdin(ctx: CliContext): Promise<string> {
  if (ctx.stdin.isTTY) ctx.stderr.write('Enter the secret and press Enter (input is read from stdin): ')
  const chunks: Buffer[] = []
  for await (const chunk of ctx.stdin) chunks.push(Buffer.from(chunk as Buffer))
  const value = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '')
  if (!value)
    throw new GeoFailure(
      'validation',
      'No secret on stdin; pipe it in, e.g. printf %s "$TOKEN" | geo-analyst secret set token',
    )
  return value
}

function warnIfStoreProblem(ctx: CliContext, status: SecretsStatus): void {
  if (status.store === 'session-memory')
    ctx.warn(status.warning ?? 'no keychain; secrets last for this process only')
  else if (status.warning) ctx.warn(status.warning)
}

export const secretCommands: CliCommand[] = [
  {
    name: 'secret set',
    summary: 'Set a credential of a profile from stdin (never from the command line)',
    usage: `secret set NAME [--profile P]   (NAME: ${NAMES})`,
    flags: { profile: 'string' },
    async run(ctx, args) {
      const name = credentialName(args.positionals[0])
      if (args.positionals.length > 1) {
        throw new GeoFailure('validation', 'secret set takes the value from stdin only, never as an argument')
      }
      const value = await readSecretFromStdin(ctx)
      const status = await ctx.invoke('secrets.set', { profile: stringFlag(args, 'profile'), name, value })
      if (status.store === 'session-memory') {
        throw new GeoFailure(
          'local-configuration',
          `${status.warning ?? 'No keychain answered'} A secret set from the command line would be lost when it exits; use GEO_ANALYST_TOKEN or GEO_ANALYST_LICENCE_KEY for scripts.`,
        )
      }
      ctx.print(status, `Credential ${name} set for profile ${status.profile} in the OS keychain.`)
    },
  },
  {
    name: 'secret status',
    summary: 'Show which credentials of a profile are set (never their values)',
    usage: 'secret status [--profile P]',
    flags: { profile: 'string' },
    async run(ctx, args) {
      const status = await ctx.invoke('secrets.status', { profile: stringFlag(args, 'profile') })
      warnIfStoreProblem(ctx, status)
      ctx.print(status, statusText(status))
    },
  },
  {
    name: 'secret clear',
    summary: 'Remove a credential of a profile',
    usage: 'secret clear NAME [--profile P]',
    flags: { profile: 'string' },
    async run(ctx, args) {
      const name = credentialName(args.positionals[0])
      const status = await ctx.invoke('secrets.clear', { profile: stringFlag(args, 'profile'), name })
      warnIfStoreProblem(ctx, status)
      ctx.print(status, `Credential ${name} cleared for profile ${status.profile}.`)
    },
  },
]
