/**
 * CSV (RFC 4180), read and written once for the renderer, the core, the CLI and the local service: fields
 * quoted when they hold a comma, quote, CR or LF; CRLF line ends; a byte-order mark is dropped on reading.
 */

/** A CSV that cannot be read, with what is wrong (e.g. a quoted field that never ends). */
export class CsvError extends Error {
  override name = 'CsvError'
}

/** A text that is a plain number (`-12.5`, `+3`, `1e-7`): a spreadsheet reads it as a number, never a formula. */
const PLAIN_NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/

/**
 * A text cell a spreadsheet would run as a formula — starting with = + - @, a tab or a carriage return — is
 * written with a leading apostrophe, which spreadsheets show as text (OWASP "CSV injection"). Texts that are
 * plain numbers are left as they are.
 */
export function neutraliseCell(text: string): string {
  return /^[=+\-@\t\r]/.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text
}

/** One field as written to a file: null/undefined empty, objects as JSON, formula-like text neutralised. */
export function csvField(value: unknown): string {
  const text =
    value === null || value === undefined
      ? ''
      : typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : neutraliseCell(typeof value === 'object' ? JSON.stringify(value) : String(value))
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** One row as written to a file, CRLF-terminated. */
export function csvLine(values: readonly unknown[]): string {
  return values.map(csvField).join(',') + '\r\n'
}

/** Rows as a whole CSV text. */
export function csvText(rows: ReadonlyArray<readonly unknown[]>): string {
  return rows.map(csvLine).join('')
}

/**
 * Rows of fields from CSV text: quoted fields with doubled quotes, comma separator, CRLF or LF rows; blank
 * lines skipped. Throws `CsvError` when the text ends inside a quoted field.
 */
export function parseCsv(input: string): string[][] {
  const text = input.replace(/^\uFEFF/, '')
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"'
          i++
        } else quoted = false
      } else field += c
    } else if (c === '"' && field === '') quoted = true
    else if (c === ',') {
      row.push(field)
      field = ''
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++
      row.push(field)
      rows.push(row)
      row = []
      field = ''
    } else field += c
  }
  if (quoted) throw new CsvError('the CSV ends inside a quoted field (truncated file?)')
  if (field !== '' || row.length > 0) {
    row.push(field)
    rows.push(row)
  }
  return rows.filter((r) => !(r.length === 1 && r[0] === ''))
}
