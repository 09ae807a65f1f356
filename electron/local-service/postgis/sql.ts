import { DatabaseWorkspaceError } from './errors'

/**
 * SQL text the service writes: identifiers quoted here, every value a parameter (`$n`). Nothing a request
 * names is ever spliced into a statement but through `quoteIdent`.
 */

/** Bytes PostgreSQL keeps of a name (NAMEDATALEN − 1); a longer one would name another relation. */
const MAX_NAME_BYTES = 63

/**
 * `"name"` with inner quotes doubled: an identifier as SQL text, whatever it holds (capitals, spaces, `;`,
 * `--`, `$$`, non-ASCII letters). NUL cannot be part of a name: refused.
 */
export function quoteIdent(name: string): string {
  if (name.includes('\0')) throw new DatabaseWorkspaceError('other', 'an identifier cannot contain NUL')
  if (name === '') throw new DatabaseWorkspaceError('other', 'an identifier cannot be empty')
  return `"${name.replaceAll('"', '""')}"`
}

/** `"schema"."table"`. */
export function qualified(schema: string, table: string): string {
  return `${quoteIdent(schema)}.${quoteIdent(table)}`
}

/** Whether PostgreSQL would keep `name` whole (at most 63 bytes, no NUL). */
export function fitsIdentifier(name: string): boolean {
  return name !== '' && !name.includes('\0') && Buffer.byteLength(name) <= MAX_NAME_BYTES
}

/** The values of one statement: `add` gives the placeholder of a value (`$1`, `$2`…). */
export class SqlParams {
  readonly values: unknown[] = []

  add(value: unknown, cast?: string): string {
    if (typeof value === 'string' && value.includes('\0'))
      throw new DatabaseWorkspaceError('other', 'a value sent to the database cannot contain NUL')
    this.values.push(value)
    return `$${this.values.length}${cast ? `::${cast}` : ''}`
  }
}
