import pg from 'pg'
import { JsonChunkWriter } from '../engine/json-chunks'
import { RowWriter, TEXT_TYPES } from './cursor-rows'
import type { OutputKind } from './join-sql'

/**
 * The join's first way (decision 030): the statement runs as a plain SELECT — so PostgreSQL may run it in
 * parallel, which it never does for a cursor — and its rows are encoded as they arrive, each row parsed
 * while the server computes the next. The answer's status (200, 206, 404) and row count go before the rows,
 * so they are held until the statement ends, up to `BUFFER_BYTES` of encoded rows: past that, the rows are
 * dropped and the join takes the second way (a temporary table read through a cursor, `join-run.ts`).
 */

/** Encoded rows held at most before the answer starts (the service's memory for any one join). */
export const BUFFER_BYTES = 8 * 1024 * 1024

/** The bound: `GEO_ANALYST_PG_BUFFER_BYTES` (0 – 256 MiB; 0 sends every join the second way), else `BUFFER_BYTES`. */
export function bufferBytes(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.GEO_ANALYST_PG_BUFFER_BYTES
  const n = text === undefined || text === '' ? NaN : Number(text)
  return Number.isInteger(n) && n >= 0 && n <= 256 * 1024 * 1024 ? n : BUFFER_BYTES
}

/** A typical encoded value by kind (a point's WKT is ~40 bytes with full-precision coordinates). */
const TYPICAL_VALUE_BYTES: Record<OutputKind, number> = { number: 6, text: 10, json: 10, wkt: 40 }

/**
 * The bytes a join's answer would take, from its expected rows and its columns' kinds: each row's keys
 * (`,"propN":`, 9 bytes), a typical value of each kind and its braces. What `joinRows` compares with the
 * buffer to send a join the statistics expect large straight to the second way.
 */
export function expectedAnswerBytes(rows: number, kinds: readonly OutputKind[]): number {
  return rows * kinds.reduce((n, kind) => n + 9 + TYPICAL_VALUE_BYTES[kind], 2)
}

export type Buffered =
  | { kind: 'done'; count: number; truncated: boolean; parts: Uint8Array[] }
  /** More than `BUFFER_BYTES` of rows: the statement was abandoned (its connection must be closed). */
  | { kind: 'too-large' }

/**
 * Run `text` (at most `cap + 1` rows) and encode its rows (at most `cap`), holding them. Rejects with the
 * database's error. On 'too-large' the statement may still be running: the caller closes the connection.
 */
export function bufferRows(
  client: pg.PoolClient,
  text: string,
  values: unknown[],
  kinds: readonly OutputKind[],
  cap: number,
  limit = bufferBytes(),
): Promise<Buffered> {
  return new Promise((resolve, reject) => {
    const parts: Uint8Array[] = []
    let bytes = 0
    let count = 0
    let rowsSeen = 0
    let settled = false
    const out = new JsonChunkWriter((chunk) => {
      parts.push(chunk)
      bytes += chunk.byteLength
    }, 1 << 16)
    const writer = new RowWriter(out, kinds, kinds.length)
    const one: (string | null)[][] = [[]]
    // rowMode 'array' (QueryConfig types it only on query(), not on the Query class).
    const config = { text, values, rowMode: 'array', types: TEXT_TYPES } as unknown as pg.QueryConfig
    const query = new pg.Query<(string | null)[]>(config)
    query.on('row', (row) => {
      if (settled) return
      rowsSeen++
      if (rowsSeen > cap) return
      one[0] = row
      writer.write(one)
      count++
      if (bytes > limit || limit === 0) {
        settled = true
        parts.length = 0
        // Stop reading at once: the rows still coming would be parsed for nothing (and held meanwhile).
        ;(
          client as unknown as { connection?: { stream?: { destroy(): void } } }
        ).connection?.stream?.destroy()
        resolve({ kind: 'too-large' })
      }
    })
    query.on('end', () => {
      if (settled) return
      settled = true
      out.flush()
      resolve({ kind: 'done', count, truncated: rowsSeen > cap, parts })
    })
    query.on('error', (error: Error) => {
      if (settled) return
      settled = true
      reject(error)
    })
    client.query(query)
  })
}
