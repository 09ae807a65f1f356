import { X509Certificate } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import type { Profile } from '../../contract'
import { BASE_URL_KEYS, type BaseUrlKey } from '../../contract/groups'
import { GeoFailure } from '../../base/geo-failure'
import { stringFlag, type ParsedArgs } from '../args'
import type { CliCommand } from '../context'

/** `--atlas-url` for `atlas_url`, one flag per spec placeholder. */
export function urlFlag(key: BaseUrlKey): string {
  return key.replace(/_/g, '-')
}

function describe(profile: Profile, active: boolean): string {
  const head = `${active ? '* ' : '  '}${profile.name}${profile.builtIn ? ' (built-in local service)' : ''}`
  if (!profile.urls) return `${head}\n    local service not running in this process`
  return [
    head,
    ...BASE_URL_KEYS.map((key) => `    ${key.padEnd(17)}${profile.urls?.[key]}`),
    ...(profile.caCertificate ? [`    ${'server CA'.padEnd(17)}${describeCa(profile.caCertificate)}`] : []),
  ].join('\n')
}

/** A CA certificate as a person checks it: its subject and SHA-256 fingerprint. */
function describeCa(pem: string): string {
  try {
    const cert = new X509Certificate(pem)
    return `${cert.subject.replace(/\n/g, ', ')} (SHA-256 ${cert.fingerprint256})`
  } catch {
    return 'a PEM certificate'
  }
}

/** `--ca-cert FILE` as PEM text (checked by the operation's schema), `--no-ca-cert` as none, else unchanged. */
async function caCertificateOf(args: ParsedArgs, existing: string | undefined): Promise<string | undefined> {
  const file = stringFlag(args, 'ca-cert')
  if (file !== undefined && args.flags['no-ca-cert'] === true)
    throw new GeoFailure('validation', 'give either --ca-cert FILE or --no-ca-cert, not both', {
      field: 'ca-cert',
    })
  if (args.flags['no-ca-cert'] === true) return undefined
  if (file === undefined) return existing
  try {
    return await readFile(file, 'utf8')
  } catch (error) {
    throw new GeoFailure(
      'validation',
      `cannot read the CA certificate ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      { field: 'ca-cert' },
    )
  }
}

export const profileCommands: CliCommand[] = [
  {
    name: 'profile list',
    summary: 'List connection profiles; * marks the active one',
    usage: 'profile list',
    async run(ctx) {
      const view = await ctx.invoke('settings.get', {})
      ctx.print(
        view,
        view.profiles.map((p) => `${p.name === view.activeProfile ? '*' : ' '} ${p.name}`).join('\n'),
      )
    },
  },
  {
    name: 'profile show',
    summary: 'Show a profile (default: the active one) with its base URLs',
    usage: 'profile show [NAME]',
    async run(ctx, args) {
      const view = await ctx.invoke('settings.get', {})
      const name = args.positionals[0] ?? view.activeProfile
      const profile = view.profiles.find((p) => p.name === name)
      if (!profile) throw new GeoFailure('not-found', `No profile named "${name}"`)
      ctx.print(profile, describe(profile, profile.name === view.activeProfile))
    },
  },
  {
    name: 'profile use',
    summary: 'Make a profile the active one',
    usage: 'profile use NAME',
    async run(ctx, args) {
      const name = args.positionals[0]
      if (!name) throw new GeoFailure('validation', 'profile use needs a profile NAME')
      const view = await ctx.invoke('settings.chooseProfile', { name })
      ctx.print(view, `Active profile: ${view.activeProfile}`)
    },
  },
  {
    name: 'profile set',
    summary:
      "Create or update a remote profile; a new profile needs all six base URLs; --ca-cert trusts the server's own CA",
    usage: `profile set NAME ${BASE_URL_KEYS.map((k) => `--${urlFlag(k)} URL`).join(' ')} [--ca-cert FILE | --no-ca-cert]`,
    flags: {
      ...Object.fromEntries(BASE_URL_KEYS.map((k) => [urlFlag(k), 'string' as const])),
      'ca-cert': 'string',
      'no-ca-cert': 'boolean',
    },
    async run(ctx, args) {
      const name = args.positionals[0]
      if (!name) throw new GeoFailure('validation', 'profile set needs a profile NAME')
      const view = await ctx.invoke('settings.get', {})
      const known = view.profiles.find((p) => p.name === name && !p.builtIn)
      const urls: Partial<Record<BaseUrlKey, string>> = { ...known?.urls }
      for (const key of BASE_URL_KEYS) {
        const value = stringFlag(args, urlFlag(key))
        if (value !== undefined) urls[key] = value
      }
      const missing = BASE_URL_KEYS.filter((k) => !urls[k])
      if (missing.length > 0) {
        throw new GeoFailure(
          'validation',
          `profile "${name}" needs ${missing.map((k) => `--${urlFlag(k)}`).join(', ')}`,
          {
            field: missing[0],
          },
        )
      }
      const caCertificate = await caCertificateOf(args, known?.caCertificate)
      const saved = await ctx.invoke('settings.saveProfile', {
        name,
        urls: urls as Record<BaseUrlKey, string>,
        ...(caCertificate ? { caCertificate } : {}),
      })
      const profile = saved.profiles.find((p) => p.name === name) as Profile
      ctx.print(profile, `Saved profile ${name}.`)
    },
  },
  {
    name: 'profile delete',
    summary: 'Delete a remote profile and its credentials',
    usage: 'profile delete NAME',
    async run(ctx, args) {
      const name = args.positionals[0]
      if (!name) throw new GeoFailure('validation', 'profile delete needs a profile NAME')
      const view = await ctx.invoke('settings.deleteProfile', { name })
      ctx.print(view, `Deleted profile ${name}.`)
    },
  },
]
