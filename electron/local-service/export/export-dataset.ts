import { writeFileAtomic } from '../../core/fs/atomic-write'
import { destroy, loadGeos, toGeos, toWkt } from '../engine/geos'
import { writeFlatGeobuf } from '../workspace/fgb'
import { writeGeoPackage } from '../workspace/gpkg'
import type { Workspace } from '../workspace/workspace'

export const EXPORT_FORMATS = ['geojson', 'csv', 'fgb', 'gpkg'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

/** A text that is a plain number (`-12.5`, `+3`, `1e-7`): a spreadsheet reads it as a number, never a formula. */
const PLAIN_NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/

/**
 * A text cell a spreadsheet would run as a formula — starting with = + - @, a tab or a carriage return — is
 * written with a leading apostrophe, which spreadsheets show as text (OWASP "CSV injection"). Numbers, and
 * texts that are plain numbers, are written as they are.
 */
export function neutraliseCell(text: string): string {
  return /^[=+\-@\t\r]/.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text
}

function csvField(value: unknown): string {
  const text =
    value === null || value === undefined
      ? ''
      : typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : neutraliseCell(typeof value === 'object' ? JSON.stringify(value) : String(value))
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/**
 * Write a dataset to a file (atomically) as GeoJSON, CSV with a WKT column (formula-like text cells
 * neutralised), FlatGeobuf or GeoPackage (with the R-tree spatial index).
 */
export async function exportDataset(
  workspace: Workspace,
  name: string,
  format: ExportFormat,
  out: string,
): Promise<number> {
  const { manifest, features } = await workspace.read(name)
  let data: string | Uint8Array
  switch (format) {
    case 'geojson':
      data = JSON.stringify({
        type: 'FeatureCollection',
        name: manifest.name,
        features: features.map((f) => ({ type: 'Feature', properties: f.properties, geometry: f.geometry })),
      })
      break
    case 'csv': {
      const geos = await loadGeos()
      const header = ['wkt', ...manifest.fields.map((f) => f.name)]
      const lines = [header.map(csvField).join(',')]
      for (const f of features) {
        let wkt = ''
        if (f.geometry) {
          const ptr = toGeos(geos, f.geometry)
          wkt = toWkt(geos, ptr)
          destroy(geos, ptr)
        }
        lines.push([wkt, ...manifest.fields.map((field) => f.properties[field.name])].map(csvField).join(','))
      }
      data = lines.join('\r\n') + '\r\n'
      break
    }
    case 'fgb':
      data = writeFlatGeobuf(features, manifest.fields)
      break
    case 'gpkg':
      data = await writeGeoPackage(features, manifest.fields, {
        geometryType: manifest.geometryType,
        extent: manifest.extent,
      })
      break
  }
  await writeFileAtomic(out, data, { mode: 0o644 })
  return features.length
}
