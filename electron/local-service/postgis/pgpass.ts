import { readFileSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/** The fields of a `~/.pgpass` line (`host:port:database:user:password`, `\:` and `\\` escaped). */
function splitLine(line: string): string[] {
  const fields: string[] = []
  let current = ''
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!
    if (ch === '\\' && i + 1 < line.length) current += line[++i]
    else if (ch === ':' && fields.length < 4) {
      fields.push(current)
      current = ''
    } else current += ch
  }
  fields.push(current)
  return fields
}

/**
 * The password libpq would take from the password file (PGPASSFILE, else ~/.pgpass) for this target: the
 * first line whose fields match, `*` matching anything. As libpq, a file readable by group or others is
 * ignored. Undefined when none matches.
 */
export function pgpassPassword(
  target: { host: string; port: number; database: string; user: string },
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const file = env.PGPASSFILE || path.join(env.HOME || os.homedir(), '.pgpass')
  let text: string
  try {
    if (process.platform !== 'win32' && (statSync(file).mode & 0o077) !== 0) return undefined
    text = readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
  const want = [target.host, String(target.port), target.database, target.user]
  for (const raw of text.split(/\r?\n/)) {
    if (raw.trim() === '' || raw.startsWith('#')) continue
    const fields = splitLine(raw)
    if (fields.length < 5) continue
    const hostMatches = (f: string, v: string) =>
      f === '*' || f === v || (f === 'localhost' && (v === '127.0.0.1' || v === '::1' || v.startsWith('/')))
    if (
      hostMatches(fields[0]!, want[0]!) &&
      [1, 2, 3].every((i) => fields[i] === '*' || fields[i] === want[i])
    )
      return fields[4]
  }
  return undefined
}
