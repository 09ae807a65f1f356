import os from 'node:os'
import type { Queryable } from '../postgis/catalog'
import { quoteIdent } from '../postgis/sql'
import { BOOKKEEPING_SCHEMA } from '../postgis/workspace'
import { AuditLog, type AuditEntry, type AuditLogOptions, type AuditSink } from './audit-log'

/** The audit shared by every instance over one PostGIS workspace (the file stays per instance). */
export const AUDIT_TABLE = `${quoteIdent(BOOKKEEPING_SCHEMA)}.audit`

/** Entries waiting for the database at most; past it new ones are dropped and counted. */
export const AUDIT_BUFFER = 5000
/** Entries per INSERT at most. */
const BATCH = 500

/** Create the schema and table when absent; two instances starting at once both succeed. */
export async function ensureAuditTable(db: Queryable): Promise<void> {
  const statements = [
    `CREATE SCHEMA IF NOT EXISTS ${quoteIdent(BOOKKEEPING_SCHEMA)}`,
    `CREATE TABLE IF NOT EXISTS ${AUDIT_TABLE} (
       id bigserial PRIMARY KEY, time timestamptz NOT NULL, "user" text, operation text NOT NULL,
       target text, outcome text NOT NULL, status int NOT NULL, ms int NOT NULL, address text,
       instance text)`,
    `CREATE INDEX IF NOT EXISTS audit_time ON ${AUDIT_TABLE} (time)`,
  ]
  for (const sql of statements) {
    // Two services creating it at once: one wins, the other's IF NOT EXISTS races into a unique violation.
    await db.query(sql).catch(async (error: unknown) => {
      if ((error as { code?: string }).code !== '23505') throw error
      await db.query(sql)
    })
  }
}

/**
 * Entries inserted in batches (one statement per batch, its columns as arrays) into `geo_analyst.audit`,
 * from a bounded buffer: when the database is slower than the requests or away, new entries are dropped,
 * counted and reported once (with the count when it works again) — a request never waits for the audit.
 */
export class PostgisAuditSink implements AuditSink {
  dropped = 0
  private buffer: AuditEntry[] = []
  private writing: Promise<void> | undefined
  private ready: Promise<void> | undefined
  private failing = false
  private closed = false

  constructor(
    private readonly db: Queryable,
    private readonly instance: string,
    private readonly report: (message: string) => void = (m) => process.stderr.write(m + '\n'),
  ) {}

  add(entry: AuditEntry): void {
    if (this.closed) return
    if (this.buffer.length >= AUDIT_BUFFER) {
      this.dropped++
      return
    }
    this.buffer.push(entry)
    this.writing ??= this.write().finally(() => {
      this.writing = undefined
    })
  }

  /** Wait until what was added so far is in the table (or dropped). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing
  }

  async close(): Promise<void> {
    await this.flush()
    this.closed = true
    if (this.dropped > 0) this.report(`audit table: ${this.dropped} entries were dropped`)
  }

  private async write(): Promise<void> {
    // Let a burst of requests gather into one statement.
    await new Promise((resolve) => setImmediate(resolve))
    while (this.buffer.length > 0) {
      const batch = this.buffer.splice(0, BATCH)
      try {
        this.ready ??= ensureAuditTable(this.db).catch((error: unknown) => {
          this.ready = undefined
          throw error
        })
        await this.ready
        await this.db.query(
          `INSERT INTO ${AUDIT_TABLE} (time, "user", operation, target, outcome, status, ms, address, instance)
           SELECT t, u, o, g, c, s, m, a, $9 FROM unnest($1::timestamptz[], $2::text[], $3::text[],
             $4::text[], $5::text[], $6::int[], $7::int[], $8::text[]) AS x(t, u, o, g, c, s, m, a)`,
          [
            batch.map((e) => e.time),
            batch.map((e) => e.user),
            batch.map((e) => e.operation),
            batch.map((e) => e.target),
            batch.map((e) => e.outcome),
            batch.map((e) => e.status),
            batch.map((e) => Math.round(e.ms)),
            batch.map((e) => e.address),
            this.instance,
          ],
        )
        if (this.failing) {
          this.failing = false
          this.report(`audit table: writing again (${this.dropped} entries dropped so far)`)
        }
      } catch (error) {
        this.dropped += batch.length
        if (!this.failing) {
          this.failing = true
          const message = error instanceof Error ? error.message : String(error)
          this.report(
            `audit table ${AUDIT_TABLE}: cannot insert: ${message.slice(0, 200)} (entries are being dropped)`,
          )
        }
      }
    }
  }
}

/**
 * The audit log a service writes: the file, and — over a PostGIS workspace — the shared table as well
 * (created now, so a database that refuses it fails the start in plain words rather than losing entries).
 */
export async function openAuditLog(
  options: AuditLogOptions,
  db?: Queryable,
  report?: (message: string) => void,
): Promise<AuditLog> {
  const log = new AuditLog(options, report)
  await log.check()
  if (db) {
    await ensureAuditTable(db)
    log.addSink(new PostgisAuditSink(db, `${os.hostname()}:${process.pid}`, report))
  }
  return log
}
