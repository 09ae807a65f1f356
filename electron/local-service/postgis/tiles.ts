import type { DatabaseDataset, Queryable } from './catalog'
import {
  buildOverview,
  currentOverview,
  OVERVIEW_MIN_ROWS,
  tableSignature,
  type Overview,
  type OverviewBuild,
} from './tiles-overviews'
import {
  FULL_DETAIL_ZOOM,
  gridTileSql,
  overviewTileSql,
  plainTileSql,
  type TileAddress,
  type TileSource,
} from './tiles-sql'
import { quoteIdent } from './catalog'

/** How a tile was cut: every feature, thinned on the fly by the pixel grid, or read from an overview. */
export type TileThinning = 'none' | 'grid' | 'overview'

export interface VectorTile {
  /** The MVT bytes; empty when no feature is in the tile. */
  bytes: Buffer
  thinning: TileThinning
}

/** A tile request the caller got wrong: an unknown dataset (404). */
export class TileNotFound extends Error {}

/** What the tiles read from a PostGIS workspace: its statements and its dataset list. */
export interface TilesDatabase {
  db: Queryable
  list(): Promise<DatabaseDataset[]>
}

export interface VectorTilesOptions {
  /** Keep overviews beside big point tables (default true); false thins every low zoom on the fly. */
  overviews?: boolean
  /** How long the dataset list and a table's overview state are trusted before being read again. */
  listTtlMs?: number
  checkTtlMs?: number
  /** After a failed or finished build, how long before the next build of the same table may start. */
  rebuildAfterMs?: number
  now?: () => number
  /** Told when an overview build ends (tests, the benchmark); errors too. */
  onBuild?: (dataset: string, outcome: OverviewBuild | Error) => void
}

interface OverviewState {
  checkedAt: number
  current: Overview | undefined
  building: Promise<void> | undefined
  lastAttempt: number
}

/**
 * Vector tiles of a PostGIS workspace's datasets (decision 031), cut by the database: from zoom 14 every
 * feature; below, a big point table's overview level when one is current, else the table thinned on the
 * fly by the tile pixel grid. A missing or stale overview is built in the background (one at a time per
 * table) while tiles are thinned on the fly.
 */
export class VectorTiles {
  private datasets: Map<string, DatabaseDataset> | undefined
  private listedAt = -Infinity
  private listing: Promise<void> | undefined
  private postgisSchema: Promise<string> | undefined
  private readonly srids = new Map<string, Promise<number>>()
  private readonly overviews = new Map<string, OverviewState>()
  private readonly now: () => number
  private closed = false

  constructor(
    private readonly database: TilesDatabase,
    private readonly options: VectorTilesOptions = {},
  ) {
    this.now = options.now ?? Date.now
  }

  /** The dataset a tile names, from the workspace's list (read again when older than the TTL or on a miss). */
  private async dataset(name: string): Promise<DatabaseDataset> {
    const ttl = this.options.listTtlMs ?? 10_000
    const fresh = () => this.now() - this.listedAt < ttl
    if (!this.datasets || !fresh()) await this.relist()
    let found = this.datasets!.get(name)
    // A dataset created since: read the list again, at most once a second.
    if (!found && this.now() - this.listedAt > 1000) {
      await this.relist()
      found = this.datasets!.get(name)
    }
    if (!found) throw new TileNotFound(`no dataset named "${name.slice(0, 200)}" in the workspace's schemas`)
    return found
  }

  private async relist(): Promise<void> {
    this.listing ??= (async () => {
      try {
        const list = await this.database.list()
        this.datasets = new Map(list.map((d) => [d.name, d]))
        this.listedAt = this.now()
      } finally {
        this.listing = undefined
      }
    })()
    await this.listing
  }

  private async source(dataset: DatabaseDataset): Promise<TileSource> {
    this.postgisSchema ??= this.database.db
      .query(
        `SELECT n.nspname::text AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
          WHERE e.extname = 'postgis'`,
      )
      .then((r) => String(r.rows[0]!.schema))
      .catch((error: unknown) => {
        this.postgisSchema = undefined
        throw error
      })
    const postgisSchema = await this.postgisSchema
    return { dataset, postgisSchema, srid: await this.sridOf(dataset, postgisSchema) }
  }

  /** The SRID of an unconstrained geometry column is its first row's (0, none, is taken as lon/lat). */
  private sridOf(dataset: DatabaseDataset, postgisSchema: string): Promise<number> {
    if (dataset.geometryKind === 'geography') return Promise.resolve(4326)
    if (dataset.srid !== 0) return Promise.resolve(dataset.srid)
    const key = `${dataset.schema}\0${dataset.table}`
    let srid = this.srids.get(key)
    if (!srid) {
      const col = quoteIdent(dataset.geometryColumn)
      srid = this.database.db
        .query(
          `SELECT ${quoteIdent(postgisSchema)}.ST_SRID(${col}) AS srid
             FROM ${quoteIdent(dataset.schema)}.${quoteIdent(dataset.table)} WHERE ${col} IS NOT NULL LIMIT 1`,
        )
        .then((r) => Number(r.rows[0]?.srid ?? 0))
      srid.catch(() => this.srids.delete(key))
      this.srids.set(key, srid)
    }
    return srid
  }

  /** One tile of a dataset; throws `TileNotFound` for a name outside the workspace. */
  async tile(name: string, address: TileAddress): Promise<VectorTile> {
    const dataset = await this.dataset(name)
    const source = await this.source(dataset)
    const values = [address.z, address.x, address.y, dataset.name]
    if (address.z >= FULL_DETAIL_ZOOM) return this.run(plainTileSql(source), values, 'none')
    const overview = await this.overview(source)
    const table = overview?.levels.get(address.z)
    if (table) {
      try {
        return await this.run(overviewTileSql(source, table), values, 'overview')
      } catch {
        // Dropped by a newer build between the check and the read: look again next time.
        this.overviews.delete(this.key(dataset))
      }
    }
    return this.run(gridTileSql(source), values, 'grid')
  }

  /** The plain statement (every feature at any zoom): the benchmark's anchor. */
  async plainTile(name: string, address: TileAddress): Promise<VectorTile> {
    const source = await this.source(await this.dataset(name))
    return this.run(plainTileSql(source), [address.z, address.x, address.y, source.dataset.name], 'none')
  }

  private async run(sql: string, values: unknown[], thinning: TileThinning): Promise<VectorTile> {
    const { rows } = await this.database.db.query(sql, values)
    const tile = rows[0]?.tile
    return { bytes: Buffer.isBuffer(tile) ? tile : Buffer.alloc(0), thinning }
  }

  private key(dataset: DatabaseDataset): string {
    return `${dataset.schema}\0${dataset.table}`
  }

  /** Whether a dataset may have overviews: a stored point table big enough to need them. */
  private eligible(dataset: DatabaseDataset): boolean {
    return (
      (this.options.overviews ?? true) &&
      dataset.geometryType === 'POINT' &&
      ['table', 'materialized view', 'partitioned table'].includes(dataset.kind) &&
      (dataset.featureCount ?? 0) >= OVERVIEW_MIN_ROWS
    )
  }

  /** The table's current overview, checked at most every few seconds; a build is started when it has none. */
  private async overview(source: TileSource): Promise<Overview | undefined> {
    if (!this.eligible(source.dataset)) return undefined
    const key = this.key(source.dataset)
    let state = this.overviews.get(key)
    if (state && this.now() - state.checkedAt < (this.options.checkTtlMs ?? 5000)) return state.current
    const signed = await tableSignature(this.database.db, source)
    if (!signed) return undefined
    const current = await currentOverview(this.database.db, signed.relid, signed.signature)
    state = { building: undefined, lastAttempt: -Infinity, ...state, checkedAt: this.now(), current }
    this.overviews.set(key, state)
    const rebuildAfter = this.options.rebuildAfterMs ?? 60_000
    if (!current && !state.building && !this.closed && this.now() - state.lastAttempt >= rebuildAfter) {
      const s = state
      s.lastAttempt = this.now()
      s.building = buildOverview(this.database.db, source, signed)
        .then((built) => {
          s.checkedAt = -Infinity
          this.options.onBuild?.(source.dataset.name, built)
        })
        .catch((error: unknown) => {
          this.options.onBuild?.(
            source.dataset.name,
            error instanceof Error ? error : new Error(String(error)),
          )
        })
        .finally(() => {
          s.building = undefined
          s.lastAttempt = this.now()
        })
    }
    return current
  }

  /** Wait for the overview builds in progress (the benchmark, tests, and a service stopping). */
  async settled(): Promise<void> {
    await Promise.all([...this.overviews.values()].map((s) => s.building))
  }

  async close(): Promise<void> {
    this.closed = true
    await this.settled()
  }
}
