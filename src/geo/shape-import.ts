import { kml } from '@tmcw/togeojson'
import type { Feature, FeatureCollection, Geometry } from 'geojson'
import { geoJsonIssues } from '@contract/gis/geojson'

/** A file of shapes that cannot be read, with a message that names the file and what is wrong. */
export class ShapeImportError extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

function toCollection(value: unknown, fileName: string): FeatureCollection {
  if (!isObject(value)) throw new ShapeImportError(`${fileName}: not a GeoJSON object`)
  if (value.type === 'FeatureCollection') return value as unknown as FeatureCollection
  if (value.type === 'Feature') return { type: 'FeatureCollection', features: [value as unknown as Feature] }
  if (typeof value.type === 'string' && ('coordinates' in value || 'geometries' in value)) {
    return {
      type: 'FeatureCollection',
      features: [{ type: 'Feature', properties: {}, geometry: value as unknown as Geometry }],
    }
  }
  throw new ShapeImportError(
    `${fileName}: expected a GeoJSON FeatureCollection, Feature or geometry, found type "${String(value.type)}"`,
  )
}

function parseKml(text: string, fileName: string): FeatureCollection {
  const doc = new DOMParser().parseFromString(text, 'application/xml')
  if (doc.getElementsByTagName('parsererror').length > 0) {
    throw new ShapeImportError(`${fileName}: not well-formed XML (KML)`)
  }
  const collection = kml(doc) as FeatureCollection
  return {
    type: 'FeatureCollection',
    features: collection.features.filter((f) => f.geometry !== null),
  }
}

/**
 * Read shapes from a GeoJSON (.geojson, .json) or KML (.kml) file's text into WGS84 features, checked
 * with the contract's RFC 7946 rules. Throws ShapeImportError naming the file and the first problems.
 */
export function parseShapeFile(fileName: string, text: string): Feature[] {
  const lower = fileName.toLowerCase()
  const trimmed = text.trimStart()
  let collection: FeatureCollection
  if (lower.endsWith('.kml') || trimmed.startsWith('<')) {
    collection = parseKml(text, fileName)
  } else if (lower.endsWith('.geojson') || lower.endsWith('.json') || trimmed.startsWith('{')) {
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (error) {
      throw new ShapeImportError(`${fileName}: not valid JSON (${(error as Error).message})`)
    }
    if (isObject(value) && isObject(value.crs)) {
      const name = JSON.stringify(value.crs)
      if (!/CRS84|4326/.test(name)) {
        throw new ShapeImportError(
          `${fileName}: declares a CRS other than WGS84 (${name}); shapes must be longitude/latitude (RFC 7946)`,
        )
      }
    }
    collection = toCollection(value, fileName)
  } else {
    throw new ShapeImportError(`${fileName}: shapes can be imported from .geojson, .json or .kml files`)
  }
  if (!Array.isArray(collection.features) || collection.features.length === 0) {
    throw new ShapeImportError(`${fileName}: holds no shapes`)
  }
  const issues = geoJsonIssues(collection, 'file')
  if (issues.length > 0) {
    const first = issues
      .slice(0, 3)
      .map((i) => `${i.field}: ${i.rule}`)
      .join('; ')
    throw new ShapeImportError(`${fileName}: ${first}`)
  }
  return collection.features.map((f) => ({
    type: 'Feature',
    properties: isObject(f.properties) ? f.properties : {},
    geometry: f.geometry,
  }))
}
