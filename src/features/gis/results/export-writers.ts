import type { Geometry } from 'geojson'
import { csvLine } from '../../../../shared/csv'
import {
  COLLECTION_TAIL,
  collectionHead,
  featureCollectionText,
  featureText,
} from '../../../../shared/geojson'
import { toWkt } from '../../../geo/wkt'
import type { ResultColumn } from './results-columns'

/** What an export holds: exactly the table's rows (after filter and sort) and its columns, by their names. */
export interface ExportTable {
  columns: readonly ResultColumn[]
  /** By position: an array, or the table's list that makes each row as it is read. */
  rows: {
    readonly length: number
    slice(start: number, end: number): Array<Readonly<Record<string, string>>>
  }
  /** The column holding geometry (kept out of the properties: it becomes the feature's geometry). */
  geometryKey: string | null
  geometryOf(row: Readonly<Record<string, string>>): Geometry | null
}

export type Progress = (done: number, total: number) => void

const CHUNK_ROWS = 2000
const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

/**
 * RFC 7946 FeatureCollection text, in parts of CHUNK_ROWS features, yielding to the page between parts
 * so a progress bar can move: WGS84 lon/lat (as the service gives), right-hand-rule rings,
 * properties named as the table names its columns.
 */
export async function geoJsonParts(table: ExportTable, progress?: Progress): Promise<string[]> {
  const props = table.columns.filter((c) => c.key !== table.geometryKey)
  const parts: string[] = [collectionHead()]
  const total = table.rows.length
  for (let start = 0; start < total; start += CHUNK_ROWS) {
    const chunk: string[] = []
    for (const row of table.rows.slice(start, start + CHUNK_ROWS)) {
      const properties: Record<string, string> = {}
      for (const c of props) properties[c.label] = row[c.key] ?? ''
      chunk.push(featureText(table.geometryOf(row), properties))
    }
    parts.push((start > 0 ? ',' : '') + chunk.join(','))
    progress?.(Math.min(total, start + CHUNK_ROWS), total)
    if (start + CHUNK_ROWS < total) await pause()
  }
  parts.push(COLLECTION_TAIL)
  if (total === 0) progress?.(0, 0)
  return parts
}

/**
 * CSV with the geometry as WKT in a first column `wkt`, then the table's columns by their names; formula-like
 * cells neutralised (the shared writer).
 */
export async function csvParts(table: ExportTable, progress?: Progress): Promise<string[]> {
  const props = table.columns.filter((c) => c.key !== table.geometryKey)
  const parts: string[] = [csvLine(['wkt', ...props.map((c) => c.label)])]
  const total = table.rows.length
  for (let start = 0; start < total; start += CHUNK_ROWS) {
    let chunk = ''
    for (const row of table.rows.slice(start, start + CHUNK_ROWS)) {
      chunk += csvLine([toWkt(table.geometryOf(row)), ...props.map((c) => row[c.key] ?? '')])
    }
    parts.push(chunk)
    progress?.(Math.min(total, start + CHUNK_ROWS), total)
    if (start + CHUNK_ROWS < total) await pause()
  }
  return parts
}

/** Drawn shapes as an RFC 7946 FeatureCollection (rings rewound, ids and properties kept). */
export function drawingsGeoJson(collection: {
  features: ReadonlyArray<{
    id?: string | number
    properties: Record<string, unknown> | null
    geometry: unknown
  }>
}): string {
  return featureCollectionText(
    collection.features.map((f) => ({
      id: f.id,
      geometry: (f.geometry ?? null) as Geometry | null,
      properties: f.properties ?? {},
    })),
  )
}
