import type { Geometry } from 'geojson'
import { csvLine } from '../../../shared/csv'
import { featureCollectionText } from '../../../shared/geojson'
import { writeFileAtomic } from '../../base/atomic-write'
import { destroy, loadGeos, toGeos, toWkt } from '../engine/geos'
import type { DatasetFeature } from '../workspace/features'
import { writeFlatGeobuf } from '../workspace/fgb-write'
import { writeGeoPackage } from '../workspace/gpkg'
import type { Workspace } from '../workspace/workspace'

import type { ExportFormat } from './formats'

export { EXPORT_FORMATS, type ExportFormat } from './formats'

const MULTI_OF: Partial<Record<Geometry['type'], Geometry['type']>> = {
  Point: 'MultiPoint',
  LineString: 'MultiLineString',
  Polygon: 'MultiPolygon',
}

/**
 * The features as a format that declares one geometry type per layer must store them: a dataset of
 * Polygons and MultiPolygons is MULTIPOLYGON (`datasetGeometryType`), so each Polygon is written as a
 * MultiPolygon of one part (an empty one as an empty MultiPolygon). GeoPackage requires every row to be
 * of the declared type (GDAL's validator, requirement 32); FlatGeobuf then declares the same type rather
 * than "unknown". Other datasets are returned as they are.
 */
function promotedToDeclared(
  features: readonly DatasetFeature[],
  declared: string,
): readonly DatasetFeature[] {
  const multi = Object.values(MULTI_OF).find((t) => t.toUpperCase() === declared)
  if (!multi) return features
  return features.map((f) => {
    const g = f.geometry
    if (!g || g.type === 'GeometryCollection' || MULTI_OF[g.type] !== multi) return f
    const parts = g.coordinates.length === 0 ? [] : [g.coordinates]
    return { ...f, geometry: { type: multi, coordinates: parts } as Geometry }
  })
}

/**
 * Write a dataset to a file (atomically) as RFC 7946 GeoJSON (rings rewound), CSV with a WKT column (formula-like text cells
 * neutralised), FlatGeobuf or GeoPackage (with the R-tree spatial index; both declaring the dataset's
 * geometry type, single parts promoted to it).
 */
export async function exportDataset(
  workspace: Workspace,
  name: string,
  format: ExportFormat,
  out: string,
): Promise<number> {
  const { manifest, features: stored } = await workspace.read(name)
  const features =
    format === 'gpkg' || format === 'fgb' ? promotedToDeclared(stored, manifest.geometryType) : stored
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
      data = writeFlatGeobuf(features, manifest.fields, { withoutGeometry: true })
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
