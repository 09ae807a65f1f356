import { checkWorkspace, listDatasets, type DatabaseDataset, type Queryable } from './catalog'
import { DatabasePool, resolveConnection } from './connection'
import { describeWorkspace, parseWorkspaceUri, WorkspaceUriError, type WorkspaceUri } from './uri'

export { DatabaseWorkspaceError } from './errors'
export { isDatabaseWorkspace, WorkspaceUriError } from './uri'

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
    options: { env?: NodeJS.ProcessEnv; wrap?: (db: Queryable) => Queryable } = {},
  ): PostgisWorkspace {
    const uri = parseWorkspaceUri(text)
    if (uri.schemas.includes(BOOKKEEPING_SCHEMA))
      throw new WorkspaceUriError(
        `schema: "${BOOKKEEPING_SCHEMA}" holds the app's own bookkeeping and cannot be a workspace schema`,
      )
    return new PostgisWorkspace(uri, new DatabasePool(resolveConnection(uri, options.env)), options.wrap)
  }

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

  /** The datasets, from the catalogs only (two statements). */
  list(): Promise<DatabaseDataset[]> {
    return listDatasets(this.db, this.uri.schemas)
  }

  close(): Promise<void> {
    return this.pool.close()
  }
}
