import { promises as fs } from 'node:fs'
import { ImportError } from './crs'

/**
 * CSV rows read a chunk at a time, exactly as `parseCsv` (shared/csv.ts) reads the whole text: quoted fields
 * with doubled quotes (a quote opens one only at a field's start), comma separator, CRLF, CR or LF rows,
 * blank lines skipped, a byte-order mark dropped; a text ending inside a quoted field is refused. Only the
 * rows one chunk completes are held, so a file of any length takes the memory of about one chunk.
 */
export class CsvRowStream {
  private row: string[] = []
  private field = ''
  private quoted = false
  private carry = ''
  private started = false

  /** The rows completed so far and not yet taken (`take`). */
  private rows: string[][] = []

  /** The rows completed since the last call. */
  take(): string[][] {
    const rows = this.rows
    this.rows = []
    return rows
  }

  /** Read the next piece of text; `final` on the last one. */
  push(chunk: string, final: boolean): void {
    let text = this.carry + chunk
    this.carry = ''
    if (!this.started && text.length > 0) {
      this.started = true
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
    }
    const n = text.length
    let i = 0
    while (i < n) {
      if (this.quoted) {
        const q = text.indexOf('"', i)
        if (q < 0) {
          this.field += text.slice(i)
          i = n
          break
        }
        this.field += text.slice(i, q)
        if (q + 1 === n && !final) {
          this.carry = '"'
          return
        }
        if (text.charCodeAt(q + 1) === 0x22) {
          this.field += '"'
          i = q + 2
        } else {
          this.quoted = false
          i = q + 1
        }
        continue
      }
      const c = text.charCodeAt(i)
      if (c === 0x22 && this.field === '') {
        this.quoted = true
        i++
      } else if (c === 0x2c) {
        this.row.push(this.field)
        this.field = ''
        i++
      } else if (c === 0x0a || c === 0x0d) {
        if (c === 0x0d && i + 1 === n && !final) {
          this.carry = '\r'
          return
        }
        i += c === 0x0d && text.charCodeAt(i + 1) === 0x0a ? 2 : 1
        this.endRow()
      } else {
        // A run of plain characters up to the next separator or line end (quotes inside are literal).
        let j = i + 1
        while (j < n) {
          const d = text.charCodeAt(j)
          if (d === 0x2c || d === 0x0a || d === 0x0d) break
          j++
        }
        this.field += text.slice(i, j)
        i = j
      }
    }
    if (!final) return
    if (this.quoted) throw new ImportError('the CSV ends inside a quoted field (truncated file?)')
    if (this.field !== '' || this.row.length > 0) this.endRow()
  }

  private endRow(): void {
    const row = this.row
    row.push(this.field)
    this.row = []
    this.field = ''
    if (!(row.length === 1 && row[0] === '')) this.rows.push(row)
  }
}

/** How many bytes of the file are read and decoded at a time. */
export const CSV_CHUNK_BYTES = 1 << 18

/**
 * Every row of a CSV file, in order, read `chunkBytes` at a time (UTF-8, invalid bytes replaced): `onRows`
 * gets the rows each chunk completes, and the next chunk is read when it resolves.
 */
export async function forEachCsvRow(
  file: string,
  onRows: (rows: string[][]) => void | Promise<void>,
  chunkBytes = CSV_CHUNK_BYTES,
): Promise<void> {
  const handle = await fs.open(file, 'r')
  try {
    const buffer = Buffer.allocUnsafe(chunkBytes)
    const decoder = new TextDecoder('utf-8', { fatal: false })
    const rows = new CsvRowStream()
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, chunkBytes, null)
      if (bytesRead === 0) break
      rows.push(decoder.decode(buffer.subarray(0, bytesRead), { stream: true }), false)
      await onRows(rows.take())
    }
    rows.push(decoder.decode(), true)
    await onRows(rows.take())
  } finally {
    await handle.close()
  }
}
