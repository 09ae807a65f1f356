import type pg from 'pg'
import { quoteIdent } from '../postgis/catalog'
import { classifyDatabaseError } from '../postgis/errors'
import { BOOKKEEPING_SCHEMA, type PostgisWorkspace } from '../postgis/workspace'
import type { AlarmStore, NewAlarm } from './alarm-store'
import type { StoredAlarm } from './store'

const SCHEMA = quoteIdent(BOOKKEEPING_SCHEMA)
/** The alarm configurations of every instance over the workspace. */
export const ALARMS_TABLE = `${SCHEMA}.telematics_alarms`
const REVISIONS = `${SCHEMA}.telematics_alarm_revisions`
/** Serialises the creation of the schema objects when two instances start at once. */
const DDL_LOCK = 'geo_analyst.telematics_alarms'

/**
 * Created idempotently. `id` comes from the identity sequence (never max+1: two instances would both take
 * it). The Idempotency-Key is unique where present (a partial unique index): of two creations with one key,
 * through one instance or two, the database keeps exactly one. `revision` is taken from a sequence on every
 * insert (and would be on any update): `count(*)` and `max(revision)` change with every change of the set,
 * which is what the fleet compares on each tick.
 */
const DDL = [
  `CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`,
  `CREATE SEQUENCE IF NOT EXISTS ${REVISIONS}`,
  `CREATE TABLE IF NOT EXISTS ${ALARMS_TABLE} (
     id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     rule jsonb NOT NULL,
     created_at double precision NOT NULL,
     created text NOT NULL,
     idempotency_key text,
     identity text NOT NULL,
     created_by text,
     revision bigint NOT NULL DEFAULT nextval('${REVISIONS}'))`,
  `CREATE UNIQUE INDEX IF NOT EXISTS telematics_alarms_idempotency_key
     ON ${ALARMS_TABLE} (idempotency_key) WHERE idempotency_key IS NOT NULL`,
]

const COLUMNS = 'id, rule, created_at, created, idempotency_key, identity'

function alarmOf(row: Record<string, unknown>): StoredAlarm {
  const rule = (typeof row.rule === 'string' ? JSON.parse(row.rule) : row.rule) as Omit<
    StoredAlarm,
    'id' | 'createdAt' | 'created' | 'idempotencyKey' | 'identity'
  >
  return {
    ...rule,
    id: Number(row.id),
    createdAt: Number(row.created_at),
    created: String(row.created),
    ...(row.idempotency_key != null ? { idempotencyKey: String(row.idempotency_key) } : {}),
    identity: String(row.identity),
  }
}

/**
 * The alarm configurations in the PostGIS workspace (`geo_analyst.telematics_alarms`), shared by every
 * service instance over it: a configuration created through one is listed by the others at once, and the
 * database's unique index, not a lock in one process, decides between two creations with one key.
 */
export class PostgisAlarmStore implements AlarmStore {
  readonly kind = 'postgis'
  private ready: Promise<void> | undefined

  constructor(
    private readonly database: PostgisWorkspace,
    /** Who creates (the request's user), kept beside the configuration. */
    private readonly user: () => string | undefined = () => undefined,
  ) {}

  /** The schema, sequence, table and index, made once per service (again after a failure). */
  private ensure(): Promise<void> {
    this.ready ??= this.create().catch((error: unknown) => {
      this.ready = undefined
      throw error
    })
    return this.ready
  }

  private async create(): Promise<void> {
    const client = await this.database.connect()
    try {
      await this.createIn(client)
    } catch (error) {
      // In plain words, as the pool's own statements (never a password).
      throw classifyDatabaseError(error, this.database.target)
    } finally {
      client.release()
    }
  }

  private async createIn(client: pg.PoolClient): Promise<void> {
    try {
      await client.query('BEGIN')
      // IF NOT EXISTS alone races (two sessions both find nothing and one fails on the catalog's unique
      // index): the instances take turns, and the second finds everything made.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [DDL_LOCK])
      for (const sql of DDL) await client.query(sql)
      await client.query('COMMIT')
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined)
      throw error
    }
  }

  async list(): Promise<StoredAlarm[]> {
    await this.ensure()
    const { rows } = await this.database.db.query(`SELECT ${COLUMNS} FROM ${ALARMS_TABLE} ORDER BY id`)
    return rows.map(alarmOf)
  }

  async byKey(key: string): Promise<StoredAlarm | undefined> {
    await this.ensure()
    const { rows } = await this.database.db.query(
      `SELECT ${COLUMNS} FROM ${ALARMS_TABLE} WHERE idempotency_key = $1`,
      [key],
    )
    return rows[0] ? alarmOf(rows[0]) : undefined
  }

  async insert(alarm: NewAlarm): Promise<{ alarm: StoredAlarm; created: boolean }> {
    await this.ensure()
    const { createdAt, created, idempotencyKey, identity, ...rule } = alarm
    const { rows } = await this.database.db.query(
      `INSERT INTO ${ALARMS_TABLE} (rule, created_at, created, idempotency_key, identity, created_by)
       VALUES ($1::jsonb, $2, $3, $4, $5, $6)
       ON CONFLICT (idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
       RETURNING ${COLUMNS}`,
      [JSON.stringify(rule), createdAt, created, idempotencyKey ?? null, identity, this.user() ?? null],
    )
    if (rows[0]) return { alarm: alarmOf(rows[0]), created: true }
    // The key was taken meanwhile: the configuration made with it answers.
    const earlier = idempotencyKey ? await this.byKey(idempotencyKey) : undefined
    if (!earlier)
      throw new Error('the alarm configuration was neither stored nor found by its Idempotency-Key')
    return { alarm: earlier, created: false }
  }

  async version(): Promise<string> {
    await this.ensure()
    const { rows } = await this.database.db.query(
      `SELECT count(*)::text || ':' || coalesce(max(revision), 0)::text AS v FROM ${ALARMS_TABLE}`,
    )
    return String(rows[0]!.v)
  }
}
