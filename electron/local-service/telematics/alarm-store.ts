import type { StoredAlarm, TelematicsStore } from './store'

/** A configuration about to be stored: everything but the id the store gives it. */
export type NewAlarm = Omit<StoredAlarm, 'id'>

/**
 * Where the alarm configurations live: the workspace folder's `telematics/alarms.json` (one instance), or a
 * table of the PostGIS workspace (`alarm-store-postgis.ts`: every instance over that database shares them).
 */
export interface AlarmStore {
  readonly kind: 'files' | 'postgis'
  /** Every configuration, oldest first. */
  list(): Promise<StoredAlarm[]>
  /** The configuration made with this Idempotency-Key, if any. */
  byKey(key: string): Promise<StoredAlarm | undefined>
  /**
   * Store a new configuration with the next id. When its Idempotency-Key is already taken (a request made
   * meanwhile, by this instance or another), nothing is stored and the configuration already made with that
   * key is returned with `created: false`.
   */
  insert(alarm: NewAlarm): Promise<{ alarm: StoredAlarm; created: boolean }>
  /**
   * A value that changes whenever the set of configurations changes (anywhere): the fleet compares it on
   * each tick and reloads the set only then.
   */
  version(): Promise<string>
}

/**
 * The configurations in `<workspace>/telematics/alarms.json`, as before there was a database: read once,
 * kept in memory, written atomically on each creation; creations run one at a time in this process (only
 * one service uses a folder workspace).
 */
export class FileAlarmStore implements AlarmStore {
  readonly kind = 'files'
  private loaded: Promise<StoredAlarm[]> | undefined
  private chain: Promise<unknown> = Promise.resolve()

  constructor(private readonly files: TelematicsStore) {}

  list(): Promise<StoredAlarm[]> {
    this.loaded ??= this.files.alarms()
    return this.loaded
  }

  async byKey(key: string): Promise<StoredAlarm | undefined> {
    return (await this.list()).find((a) => a.idempotencyKey === key)
  }

  insert(alarm: NewAlarm): Promise<{ alarm: StoredAlarm; created: boolean }> {
    const run = this.chain.then(async () => {
      const alarms = await this.list()
      const earlier = alarm.idempotencyKey ? await this.byKey(alarm.idempotencyKey) : undefined
      if (earlier) return { alarm: earlier, created: false }
      const stored: StoredAlarm = { ...alarm, id: alarms.reduce((max, a) => Math.max(max, a.id), 0) + 1 }
      const next = [...alarms, stored]
      await this.files.saveAlarms(next)
      this.loaded = Promise.resolve(next)
      return { alarm: stored, created: true }
    })
    this.chain = run.catch(() => undefined)
    return run
  }

  async version(): Promise<string> {
    return String((await this.list()).length)
  }
}
