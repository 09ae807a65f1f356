import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { from as copyFrom } from 'pg-copy-streams'
import { ImportError } from '../import/crs'
import { DEFAULT_IMPORT_LIMITS, runImportJob, type ImportLimits } from '../import/import-runner'
import type { ImportJob, ImportPhase } from '../import/import-job'
import type { DatasetFeature, FieldInfo } from '../workspace/features'
import { nameFromFile, Workspace, WorkspaceError, type DatasetManifest } from '../workspace/workspace'
import { classifyDatabaseError } from './errors'
import { COLUMN_TYPES, copyLine } from './import-copy'
import { withCancellableClient } from './join-client'
import { nameTaken } from './save'
import { fitsIdentifier, qualified, quoteIdent } from './sql'
import { currentOwner } from '../team/principal'
import { ensureOwnerTable, recordOwner } from './dataset-owner'
import type { PostgisWorkspace } from './workspace'

/**
 * A file imported into a PostGIS workspace as a table of its first schema. The file is read by the import
 * every folder workspace uses (every format, the same checks and refusals, `skipInvalid`, reprojection to
 * WGS84, in a worker within the import limits) into a private staging folder; its features then go to the
 * database in ONE transaction: an advisory lock on the name (the key `save.ts` takes, so an import and a
 * save of one name are serialized too), the name checked free in any letter case (409), `CREATE TABLE`
 * with a typed column per field and `geom geometry(Geometry, 4326)`, `COPY … FROM STDIN` (text format,
 * geometries as hex EWKB), the GiST index, `ANALYZE`, `COMMIT`. A refused file, a cancel, or the database
 * going away leaves no table.
 */

export interface DatabaseImportOptions {
  /** The table's name (any identifier PostgreSQL keeps whole); by default made from the file name. */
  name?: string
  /** How the source is named (default: the file's name). */
  displayName?: string
  skipInvalid?: boolean
  limits?: Partial<ImportLimits>
  signal?: AbortSignal
  onPhase?: (phase: ImportPhase | 'copying') => void
}

/** What an import made: the table's name (as a dataset of the workspace) and what the file held. */
export interface DatabaseImportResult extends DatasetManifest {
  schema: string
  table: string
}

/** Lines of COPY text sent to the database at a time. */
const COPY_BATCH = 2000

/** The dataset name for an import into a database: any identifier PostgreSQL keeps whole. */
export function databaseImportName(file: string, options: { name?: string; displayName?: string }): string {
  const name = options.name ?? nameFromFile((options.displayName ?? file).replace(/\.gz$/i, ''))
  if (!fitsIdentifier(name))
    throw new WorkspaceError(
      'invalid-name',
      `Dataset name "${name.replaceAll('\0', '\\0').slice(0, 80)}" must be 1–63 bytes without NUL (what PostgreSQL keeps of a table name)`,
    )
  return name
}

function conflict(name: string): WorkspaceError {
  return new WorkspaceError(
    'conflict',
    `A dataset named "${name}" already exists (names are unique letter case aside)`,
  )
}

/** The columns of the table; a field name PostgreSQL could not keep whole is refused, naming it. */
function columnsOf(fields: readonly FieldInfo[]): string[] {
  return fields.map((f) => {
    if (!fitsIdentifier(f.name))
      throw new ImportError(
        `field "${f.name.replaceAll('\0', '\\0').slice(0, 80)}…" is longer than the 63 bytes PostgreSQL keeps of a column name; rename it in the file`,
      )
    return `${quoteIdent(f.name)} ${COLUMN_TYPES[f.type]}`
  })
}

async function* copyText(features: readonly DatasetFeature[], fields: readonly FieldInfo[]) {
  let chunk = ''
  for (let i = 0; i < features.length; i++) {
    chunk += copyLine(features[i]!, fields)
    if ((i + 1) % COPY_BATCH === 0) {
      yield chunk
      chunk = ''
    }
  }
  if (chunk !== '') yield chunk
}

/** Read and check the file in a worker (the folder import's readers), staged in `tmp`; its manifest and features. */
async function readChecked(
  tmp: string,
  file: string,
  options: DatabaseImportOptions,
): Promise<{ manifest: DatasetManifest; features: DatasetFeature[] }> {
  const local = new Workspace(tmp)
  const staged = 'import'
  const job: ImportJob = {
    kind: 'import',
    workspaceDir: tmp,
    file,
    name: staged,
    displayName: options.displayName ?? path.basename(file),
    ...(options.skipInvalid ? { skipInvalid: true } : {}),
    stagingDir: local.stagingDir(staged),
  }
  const manifest = await runImportJob(
    job,
    { ...DEFAULT_IMPORT_LIMITS, ...options.limits },
    { signal: options.signal, onPhase: options.onPhase },
  )
  await local.commit({ dir: job.stagingDir, manifest })
  const { features } = await local.read(staged)
  return { manifest, features }
}

/** Import `file` as table `name` of the workspace's first schema (see above). */
export async function importIntoDatabase(
  ws: PostgisWorkspace,
  file: string,
  options: DatabaseImportOptions = {},
): Promise<DatabaseImportResult> {
  const name = databaseImportName(file, options)
  const schema = ws.defaultSchema
  const table = qualified(schema, name)
  const signal = options.signal ?? new AbortController().signal
  // A name taken costs no reading (checked again under the lock).
  try {
    await ws.checked()
    if (await nameTaken(ws.db, schema, name)) throw conflict(name)
  } catch (error) {
    if (error instanceof WorkspaceError) throw error
    throw classifyDatabaseError(error, ws.target)
  }
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'geo-analyst-pg-import-'))
  try {
    const { manifest, features } = await readChecked(tmp, path.resolve(file), options)
    const columns = columnsOf(manifest.fields)
    // A team server's user is recorded as the table's owner in the import's own transaction.
    const owner = currentOwner()
    if (owner)
      await ensureOwnerTable(ws.db).catch((error: unknown) => {
        throw classifyDatabaseError(error, ws.target)
      })
    options.onPhase?.('copying')
    try {
      await withCancellableClient(ws, signal, async (client) => {
        await client.query('BEGIN')
        await client.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 30))`, [
          `${schema}.${name.toLowerCase()}`,
        ])
        if (await nameTaken(client, schema, name)) throw conflict(name)
        try {
          await client.query(
            `CREATE TABLE ${table} (${[...columns, 'geom geometry(Geometry, 4326)'].join(', ')})`,
          )
        } catch (error) {
          // Made meanwhile by a program that does not take the lock: taken all the same.
          const code = (error as { code?: string }).code
          if (code === '42P07' || code === '23505') throw conflict(name)
          throw error
        }
        const target = [...manifest.fields.map((f) => quoteIdent(f.name)), 'geom'].join(', ')
        const copy = client.query(copyFrom(`COPY ${table} (${target}) FROM STDIN`))
        await pipeline(Readable.from(copyText(features, manifest.fields)), copy)
        await client.query(`CREATE INDEX ON ${table} USING gist (geom)`)
        await client.query(`ANALYZE ${table}`)
        if (owner) await recordOwner(client, schema, name, owner)
        await client.query('COMMIT')
      })
    } catch (error) {
      if (error instanceof WorkspaceError || error instanceof ImportError) throw error
      if (signal.aborted) throw new ImportError('the import was cancelled; nothing was imported')
      const e = error as { code?: string; message?: string }
      // A value the database would not take (text jsonb cannot hold, say) is the file's.
      if (typeof e.code === 'string' && e.code.startsWith('22'))
        throw new ImportError(`the database refused a value of the file: ${e.message}; nothing was imported`)
      throw classifyDatabaseError(error, ws.target)
    }
    ws.forgetResolved()
    return { ...manifest, name, schema, table: name, source: manifest.source, ...(owner ? { owner } : {}) }
  } finally {
    await fs.rm(tmp, { recursive: true, force: true })
  }
}
