import type { ServerResponse } from 'node:http'
import pg from 'pg'
import { JsonChunkWriter } from '../engine/json-chunks'
import type { OutputKind } from './join-sql'

/**
 * Rows of a server-side cursor written as the join's result rows (spec §2.4, `{"prop1":"…"}`, the file
 * engine's texts), batch by batch, waiting for the client to take each before asking for the next: the
 * service holds one batch whatever the result's size.
 */

/** Rows asked of the cursor at a time (decision 030, measured by `npm run bench:postgis`). */
export const FETCH_ROWS = 5000

/** The batch size: `GEO_ANALYST_PG_FETCH_ROWS` (100–100,000; for measuring it), else `FETCH_ROWS`. */
export function fetchRows(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.GEO_ANALYST_PG_FETCH_ROWS)
  return Number.isInteger(n) && n >= 100 && n <= 100_000 ? n : FETCH_ROWS
}

const utf8 = new TextEncoder()
const EMPTY = utf8.encode('""')

/** Every value comes as its text (the statement makes the texts; no type parsing in the driver). */
export const TEXT_TYPES = { getTypeParser: () => (value: string) => value }

/** PostGIS's WKT (`POINT(1 2)`, `LINESTRING(0 0,1 1)`) as GEOS writes it (`POINT (1 2)`, `LINESTRING (0 0, 1 1)`). */
export function geosStyleWkt(wkt: string): string {
  return wkt.replace(/,/g, ', ').replace(/([A-Z])\(/g, '$1 (')
}

/** Writes result rows into `out`: one `{"prop1":…}` per row, comma-separated. */
export class RowWriter {
  private readonly keys: Uint8Array[]
  private readonly end: Uint8Array
  private written = 0

  constructor(
    private readonly out: JsonChunkWriter,
    private readonly kinds: readonly OutputKind[],
    columns: number,
  ) {
    this.keys = Array.from({ length: columns }, (_, i) => utf8.encode(`${i > 0 ? ',' : '{'}"prop${i + 1}":`))
    this.end = utf8.encode(columns > 0 ? '}' : '{}')
  }

  write(rows: readonly (readonly (string | null)[])[]): void {
    const out = this.out
    for (const row of rows) {
      if (this.written++ > 0) out.byte(0x2c)
      for (let k = 0; k < this.keys.length; k++) {
        out.bytes(this.keys[k]!)
        const v = row[k]
        if (v === null || v === undefined) {
          out.bytes(EMPTY)
          continue
        }
        switch (this.kinds[k]) {
          case 'number': {
            const n = Number(v)
            if (Number.isNaN(n) && v !== 'NaN') out.string(v)
            else out.numberText(n)
            break
          }
          case 'json':
            try {
              out.string(JSON.stringify(JSON.parse(v)))
            } catch {
              out.string(v)
            }
            break
          case 'wkt':
            out.string(geosStyleWkt(v))
            break
          default:
            out.string(v)
        }
      }
      out.bytes(this.end)
    }
  }
}

/** Run `text` (a FETCH) and write each row it returns into `rows` as it arrives; the number of rows. */
function fetchInto(client: pg.PoolClient, text: string, rows: RowWriter): Promise<number> {
  return new Promise((resolve, reject) => {
    let n = 0
    const one: (string | null)[][] = [[]]
    const config = { text, rowMode: 'array', types: TEXT_TYPES } as unknown as pg.QueryConfig
    const query = new pg.Query<(string | null)[]>(config)
    query.on('row', (row) => {
      one[0] = row
      rows.write(one)
      n++
    })
    query.on('end', () => resolve(n))
    query.on('error', reject)
    client.query(query)
  })
}

/**
 * Where a streamed answer goes: the HTTP response on the serving thread, or the parts a pool worker sends
 * to it (`join-job.ts`). `drained` resolves once the reader has taken what was written (false: it left).
 */
export interface AnswerSink {
  start(status: number): void
  write(bytes: Uint8Array): void
  drained(): Promise<boolean>
  /** The answer's last bytes; false when the reader left first. */
  end(bytes: Uint8Array): boolean
}

/** Waits until the response can take more (or is gone: false). */
function drained(res: ServerResponse): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false)
  if (!res.writableNeedDrain) return Promise.resolve(true)
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      res.off('drain', onDrain)
      res.off('close', onClose)
      resolve(ok)
    }
    const onDrain = () => done(true)
    const onClose = () => done(false)
    res.on('drain', onDrain)
    res.on('close', onClose)
  })
}

/** An HTTP response as an `AnswerSink`: chunked, each batch written when the client has taken the last. */
export function responseSink(res: ServerResponse): AnswerSink {
  return {
    start: (status) =>
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
      }),
    write: (bytes) => {
      if (!res.destroyed) res.write(bytes)
    },
    drained: () => drained(res),
    end: (bytes) => {
      if (res.destroyed) return false
      res.end(bytes)
      return true
    },
  }
}

/**
 * Stream `count` rows of the open cursor `cursor` (on `client`, inside its transaction) as the answer: the
 * head (every member but the rows, JSON), the rows, `]}`, into `sink`. Returns false when the client left first.
 */
export async function streamCursor(
  client: pg.PoolClient,
  cursor: string,
  count: number,
  sink: AnswerSink,
  status: number,
  head: Record<string, unknown>,
  kinds: readonly OutputKind[],
  batch = fetchRows(),
): Promise<boolean> {
  sink.start(status)
  const out = new JsonChunkWriter((bytes) => sink.write(bytes))
  out.raw(JSON.stringify(head).slice(0, -1) + ',"result":[')
  const rows = new RowWriter(out, kinds, kinds.length)
  let left = count
  while (left > 0) {
    const n = Math.min(batch, left)
    // Each row is written as it is read (a 'row' listener: node-postgres then keeps no array of the
    // batch's rows), so nothing of a batch outlives the young generation but the bytes written.
    const got = await fetchInto(client, `FETCH ${n} FROM ${cursor}`, rows)
    if (got === 0) break
    left -= got
    out.flush()
    if (!(await sink.drained())) return false
  }
  out.flush()
  return sink.end(utf8.encode(']}'))
}
