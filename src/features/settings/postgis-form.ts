import { operations, SSL_MODES, type PostgisFields, type SslMode } from '@contract/index'
import type { TestConnectionAnswer } from '@contract/app/postgis'

/** The PostGIS workspace form's fields as typed (text), before the contract checks them. */
export interface PostgisDraft {
  name: string
  host: string
  port: string
  database: string
  user: string
  /** Comma-separated; the first is where new datasets go. */
  schemas: string
  sslmode: SslMode
}

export const SSL_MODE_CHOICES = SSL_MODES

export function draftOf(name: string, fields?: PostgisFields): PostgisDraft {
  return {
    name,
    host: fields?.host ?? '',
    port: String(fields?.port ?? 5432),
    database: fields?.database ?? '',
    user: fields?.user ?? '',
    schemas: (fields?.schemas ?? ['public']).join(', '),
    sslmode: fields?.sslmode ?? 'prefer',
  }
}

export type DraftCheck =
  { ok: true; name: string; postgis: PostgisFields } | { ok: false; errors: Record<string, string> }

/**
 * The draft as `settings.savePostgisProfile` takes it, checked by the contract's own schema: every field's
 * problem at once (by field: `name`, `postgis.host`, `postgis.schemas`…), so each shows under its control.
 */
export function checkDraft(draft: PostgisDraft): DraftCheck {
  const port = draft.port.trim()
  const request = {
    name: draft.name.trim(),
    postgis: {
      host: draft.host.trim(),
      port: /^\d+$/.test(port) ? Number(port) : port === '' ? undefined : Number.NaN,
      database: draft.database,
      user: draft.user,
      schemas: draft.schemas.split(',').map((s) => s.trim()),
      sslmode: draft.sslmode,
    },
  }
  const parsed = operations['settings.savePostgisProfile'].request.safeParse(request)
  if (parsed.success) return { ok: true, name: parsed.data.name, postgis: parsed.data.postgis }
  const errors: Record<string, string> = {}
  for (const issue of parsed.error.issues) {
    const field = issue.path.slice(0, 2).map(String).join('.')
    errors[field] ??= issue.message
  }
  return { ok: false, errors }
}

/** "Test connection"'s answer in plain words. */
export function answerText(answer: TestConnectionAnswer): string {
  if (!answer.ok) return answer.message
  const datasets = answer.datasets === 1 ? '1 dataset' : `${answer.datasets} datasets`
  const schemas = answer.schemas.join(', ')
  return `Connected to “${answer.database}” as ${answer.user}: PostGIS ${answer.postgisVersion}, ${datasets} in ${answer.schemas.length === 1 ? 'schema' : 'schemas'} ${schemas}.`
}

/** How a PostGIS workspace profile is listed: `user@host:port/database · schemas …`. */
export function describePostgis(fields: PostgisFields): string {
  const host = fields.host.includes(':') ? `[${fields.host}]` : fields.host
  return `${fields.user}@${host}:${fields.port}/${fields.database} · schemas ${fields.schemas.join(', ')} · sslmode ${fields.sslmode}`
}
