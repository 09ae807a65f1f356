import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import path from 'node:path'
import type { Geometry } from 'geojson'
import { csvLine } from '../../../shared/csv'
import { COLLECTION_TAIL, collectionHead, featureText } from '../../../shared/geojson'
import { WorkspaceError } from '../workspace/workspace'
import { classifyDatabaseError } from './errors'
import { geosStyleWkt } from './cursor-rows'
import { withCancellableClient } from './join-client'
import { quoteIdent, qualified } from './sql'
import type { PostgisWorkspace } from './workspace'

/**
 * A dataset of a PostGIS workspace written to a file as it streams: rows come from a server-side cursor in
 * one read-only snapshot, `EXPORT_FETCH_ROWS` at a time, each batch written before the next is asked for,
 * so the process never holds the table. The file is written beside its target and renamed into place
 * (atomic: a failure leaves no file). GeoJSON (RFC 7946, rings rewound, geometries in WGS84) and CSV with
 * a WKT column (as GEOS writes it; formula-like cells neutralised), as the folder export writes them.
 */

export const DATABASE_EXPORT_FORMATS = ['geojson', 'csv'] as const
export type DatabaseExportFormat = (typeof DATABASE_EXPORT_FORMATS)[number]

/** Rows asked of the cursor at a time. */
export const EXPORT_FETCH_ROWS = 5000

const CURSOR = 'geo_export'

/** A format a PostGIS workspace does not export. */
export class ExportFormatError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ExportFormatError'
  }
}

export async function exportFromDatabase(
  ws: PostgisWorkspace,
  name: string,
  format: string,
  out: string,
  signal: AbortSignal = new AbortController().signal,
): Promise<number> {
  if (!(DATABASE_EXPORT_FORMATS as readonly string[]).includes(format))
    throw new ExportFormatError(
      `--format ${format}: a PostGIS workspace exports as ${DATABASE_EXPORT_FORMATS.join(' or ')} (streamed); FlatGeobuf and GeoPackage are written from a folder workspace only for now`,
    )
  let found
  try {
    ;[found] = await ws.resolve([name])
  } catch (error) {
    throw classifyDatabaseError(error, ws.target)
  }
  if (!found)
    throw new WorkspaceError(
      'not-found',
      `No dataset named "${name}" in the workspace's schemas (${ws.uri.schemas.join(', ')})`,
    )
  const fields = found.fields.map((f) => f.name)
  const geom = quoteIdent(found.geometryColumn)
  // Geometries in WGS84 whatever the column's SRID (none declared: taken as WGS84).
  const wgs84 =
    found.geometryKind === 'geography' || found.srid === 0 || found.srid === 4326
      ? `${geom}::geometry`
      : `ST_Transform(${geom}, 4326)`
  const shape = format === 'geojson' ? `ST_AsGeoJSON(${wgs84}, 15)` : `ST_AsText(${wgs84})`
  const select = `SELECT ${[...fields.map((f) => `t.${quoteIdent(f)}`), `${shape} AS __geo_shape`].join(', ')}
    FROM ${qualified(found.schema, found.table)} t`

  const temp = path.join(path.dirname(out), `.${path.basename(out)}.${randomBytes(6).toString('hex')}.tmp`)
  const file = await fs.open(temp, 'wx', 0o644)
  let count = 0
  try {
    await withCancellableClient(ws, signal, async (client) => {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
      await client.query(`DECLARE ${CURSOR} NO SCROLL CURSOR FOR ${select}`)
      await file.write(format === 'geojson' ? collectionHead(name) : csvLine(['wkt', ...fields]))
      for (;;) {
        const { rows } = await client.query({
          text: `FETCH ${EXPORT_FETCH_ROWS} FROM ${CURSOR}`,
          rowMode: 'array',
        })
        if (rows.length === 0) break
        const parts: string[] = []
        for (const row of rows as unknown[][]) {
          const shapeText = row[fields.length] as string | null
          if (format === 'geojson') {
            const properties: Record<string, unknown> = {}
            fields.forEach((f, i) => {
              properties[f] = row[i] ?? null
            })
            const geometry = shapeText === null ? null : (JSON.parse(shapeText) as Geometry)
            parts.push((count > 0 ? ',' : '') + featureText(geometry, properties))
          } else {
            parts.push(
              csvLine([shapeText === null ? '' : geosStyleWkt(shapeText), ...row.slice(0, fields.length)]),
            )
          }
          count++
        }
        await file.write(parts.join(''))
      }
      if (format === 'geojson') await file.write(COLLECTION_TAIL)
      await client.query('COMMIT')
    })
    await file.sync()
    await file.close()
    await fs.rename(temp, out)
  } catch (error) {
    await file.close().catch(() => undefined)
    await fs.rm(temp, { force: true })
    if (error instanceof WorkspaceError) throw error
    throw classifyDatabaseError(error, ws.target)
  }
  return count
}
