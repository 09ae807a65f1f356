import type pg from 'pg'
import {
  checkWorkspace,
  listDatasetsSince,
  type DatabaseDataset,
  type Queryable,
  type WorkspaceCheck,
} from './catalog'
import { DatabasePool, resolveConnection } from './connection'
import { datasetOwners } from './dataset-owner'
import type { ConnectionTarget } from './errors'
import { resolveDatasets, type ResolvedDataset } from './resolve'
import { describeWorkspace, parseWorkspaceUri, WorkspaceUriError, type WorkspaceUri } from './uri'

export { DatabaseWorkspaceError } from './errors'
export { isDatabaseWorkspace, WorkspaceUriError } from './uri'

/** A statement's time limit in the database (`statement_timeout`), by default: five minutes. */
export const STATEMENT_TIMEOUT_MS = 300_000

/** How long a dataset found in the catalogs is taken as it was found (its columns, SRID). */
export const RESOLVED_TTL_MS = 5_000

/**
 * How long a listing is given again while the catalogs' digest stays the same (decision 035): what the
 * digest cannot see (a column renamed or dropped, a role's membership changed, statistics alone moving an
 * extent) shows within this, as a resolved dataset's columns do (`RESOLVED_TTL_MS`).
 */
export const LIST_REUSE_MS = 5_000

/** The schema of the product's own bookkeeping, when a later step needs any; never a workspace schema. */
export const BOOKKEEPING_SCHEMA = 'geo_analyst'

/**
 * A PostGIS database as a workspace: the schemas the URI lists (the first is where new datasets go). This
 * step lists datasets (§4.6); joins, saves, import/export and tiles build on the same pool and catalog.
 */
export class PostgisWorkspace {
  readonly uri: WorkspaceUri
  /** Where the statements go: the pool, or a wrapper of it (the benchmark counts statements). */
  readonly db: Queryable
  private readonly pool: DatabasePool
  /** What a pool worker needs to open the same workspace (`forWorker`); never logged. */
  private source: { text: string; env: NodeJS.ProcessEnv } = { text: '', env: {} }

  private constructor(uri: WorkspaceUri, pool: DatabasePool, wrap?: (db: Queryable) => Queryable) {
    this.uri = uri
    this.pool = pool
    this.db = wrap ? wrap(pool) : pool
  }

  /**
   * The workspace a URI names; the password comes from `env` as libpq takes it. Connects lazily: `check()`
   * or `list()` tell what is wrong, in plain words.
   */
  static fromUri(
    text: string,
    options: {
      env?: NodeJS.ProcessEnv
      wrap?: (db: Queryable) => Queryable
      /** How long a listing may be given again while the digest is unchanged (default `LIST_REUSE_MS`). */
      listReuseMs?: number
    } = {},
  ): PostgisWorkspace {
    const uri = parseWorkspaceUri(text)
    if (uri.schemas.includes(BOOKKEEPING_SCHEMA))
      throw new WorkspaceUriError(
        `schema: "${BOOKKEEPING_SCHEMA}" holds the app's own bookkeeping and cannot be a workspace schema`,
      )
    const target = resolveConnection(uri, options.env)
    // Every statement of the service's sessions has a time limit the database enforces (it cancels the
    // statement); PGOPTIONS' own `-c statement_timeout=…` replaces it.
    if (!/statement_timeout/.test(target.options ?? ''))
      target.options = `${target.options ?? ''} -c statement_timeout=${STATEMENT_TIMEOUT_MS}`.trim()
    const ws = new PostgisWorkspace(uri, new DatabasePool(target), options.wrap)
    ws.source = { text, env: options.env ?? process.env }
    if (options.listReuseMs !== undefined) ws.listReuseMs = options.listReuseMs
    return ws
  }

  /**
   * The URI and the libpq variables the workspace was opened with (PG*, HOME for `~/.pgpass`), for a pool
   * worker to open the same workspace (`join-job.ts`): they cross to the thread in memory, never logged.
   */
  forWorker(): { uri: string; env: Record<string, string> } {
    // Picked once (the variables are the workspace's from its opening): every join hands them on.
    if (!this.workerSource) {
      const env: Record<string, string> = {}
      for (const [key, value] of Object.entries(this.source.env))
        if (value !== undefined && (/^PG[A-Z]+$/.test(key) || key === 'HOME')) env[key] = value
      this.workerSource = { uri: this.source.text, env }
    }
    return this.workerSource
  }

  private workerSource: { uri: string; env: Record<string, string> } | undefined

  /** The schema new datasets are written to. */
  get defaultSchema(): string {
    return this.uri.schemas[0]!
  }

  /** The URI without any secret, for messages. */
  get description(): string {
    return describeWorkspace(this.uri)
  }

  /** "Test connection": connect, and check PostGIS and the schemas; throws a `DatabaseWorkspaceError`. */
  async check(): Promise<void> {
    await checkWorkspace(this.db, this.uri.schemas)
  }

  private checkedOnce: Promise<WorkspaceCheck> | undefined

  /**
   * What the check learns (PostGIS' schema and type oids), asked once and kept; asked again after a failure
   * (the database may be back).
   */
  checked(): Promise<WorkspaceCheck> {
    this.checkedOnce ??= checkWorkspace(this.db, this.uri.schemas).catch((error: unknown) => {
      this.checkedOnce = undefined
      throw error
    })
    return this.checkedOnce
  }

  private readonly resolved = new Map<string, { at: number; dataset: ResolvedDataset }>()

  /**
   * The datasets a request names (`resolveDatasets`, one catalog statement), found ones kept for
   * `RESOLVED_TTL_MS` so a run of joins does not ask the catalogs each time; a miss is never kept (a
   * dataset just saved is found at once). `forgetResolved` drops them (after a save, or a failed join).
   */
  async resolve(names: readonly string[]): Promise<(ResolvedDataset | undefined)[]> {
    const now = Date.now()
    const kept = names.map((name) => {
      const hit = this.resolved.get(name)
      return hit && now - hit.at < RESOLVED_TTL_MS ? hit.dataset : undefined
    })
    if (kept.every((d) => d !== undefined)) return kept
    const found = await resolveDatasets(this.db, await this.checked(), this.uri.schemas, names)
    found.forEach((dataset, i) => {
      if (dataset) this.resolved.set(names[i]!, { at: now, dataset })
    })
    return found
  }

  forgetResolved(): void {
    this.resolved.clear()
  }

  /** Where the workspace connects (no secret): for classifying errors. */
  get target(): ConnectionTarget {
    return this.pool.target
  }

  /** A connection of its own, for a transaction or a cursor (see `DatabasePool.connect`). */
  connect(): Promise<pg.PoolClient> {
    return this.pool.connect()
  }

  /** `pg_cancel_backend(pid)` on a connection outside the pool. */
  cancelBackend(pid: number): Promise<boolean> {
    return this.pool.cancelBackend(pid)
  }

  private listReuseMs = LIST_REUSE_MS
  private listed:
    | {
        version: string
        at: number
        datasets: DatabaseDataset[]
        /** The datasets as the catalogs gave them (no owner), by their relation's version. */
        byVersion: Map<string, DatabaseDataset>
      }
    | undefined
  private relisting: { version: string; done: Promise<DatabaseDataset[]> } | undefined

  /**
   * The datasets (decision 035). One statement checks the workspace and reads a digest of its relations
   * (`WorkspaceCheck.catalogVersion`); while the digest is the one of the last listing (and that is younger
   * than `LIST_REUSE_MS`) the last listing is the answer. Otherwise the catalogs are listed again (one more
   * statement, reading afresh only the relations changed since) with the team server's recorded owners (one
   * more), once for any number of lists asking at the same time. A dataset saved through another instance,
   * or made by another program, changes the digest: it is listed at once.
   */
  async list(): Promise<DatabaseDataset[]> {
    const check = await checkWorkspace(this.db, this.uri.schemas)
    const version = [check.postgisSchema, check.geometryOid, check.geographyOid, check.catalogVersion].join(
      ' ',
    )
    const kept = this.listed
    if (kept?.version === version && Date.now() - kept.at < this.listReuseMs) return [...kept.datasets]
    let relisting = this.relisting
    if (relisting?.version !== version) {
      const at = Date.now()
      const done = this.listAfresh(check, kept?.byVersion ?? new Map()).then(({ datasets, byVersion }) => {
        if (!this.listed || this.listed.at <= at) this.listed = { version, at, datasets, byVersion }
        return datasets
      })
      const started = { version, done }
      this.relisting = relisting = started
      void done
        .catch(() => undefined)
        .finally(() => {
          if (this.relisting === started) this.relisting = undefined
        })
    }
    return [...(await relisting.done)]
  }

  /** The listing from the catalogs, each dataset with the team server's user who saved it when recorded. */
  private async listAfresh(
    check: WorkspaceCheck,
    known: ReadonlyMap<string, DatabaseDataset>,
  ): Promise<{ datasets: DatabaseDataset[]; byVersion: Map<string, DatabaseDataset> }> {
    const [listed, owners] = await Promise.all([
      listDatasetsSince(this.db, this.uri.schemas, check, known),
      datasetOwners(this.db),
    ])
    const byVersion = new Map(listed.map((v) => [v.version, v.dataset]))
    const datasets = listed.map(({ dataset: d }) => {
      const owner = owners.get(`${d.schema}\0${d.table}`)
      return owner ? { ...d, owner } : d
    })
    return { datasets, byVersion }
  }

  close(): Promise<void> {
    return this.pool.close()
  }
}
