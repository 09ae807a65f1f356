import { csvLine } from '../../../shared/csv'
import { featureCollectionText } from '../../../shared/geojson'
import { writeFileAtomic } from '../../core/fs/atomic-write'
import { destroy, loadGeos, toGeos, toWkt } from '../engine/geos'
import { writeFlatGeobuf } from '../workspace/fgb'
import { writeGeoPackage } from '../workspace/gpkg'
import type { Workspace } from '../workspace/workspace'

export const EXPORT_FORMATS = ['geojson', 'csv', 'fgb', 'gpkg'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

/**
 * Write a dataset to a file (atomically) as RFC 7946 GeoJSON (rings rewound), CSV with a WKT column (formula-like text cells
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
      data = featureCollectionText(features, { name: manifest.name })
      break
    case 'csv': {
      const geos = await loadGeos()
      const header = ['wkt', ...manifest.fields.map((f) => f.name)]
      const lines = [csvLine(header)]
      for (const f of features) {
        let wkt = ''
        if (f.geometry) {
          const ptr = toGeos(geos, f.geometry)
          wkt = toWkt(geos, ptr)
          destroy(geos, ptr)
        }
        lines.push(csvLine([wkt, ...manifest.fields.map((field) => f.properties[field.name])]))
      }
      data = lines.join('')
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
