import type { Geometry, GeometryCollection } from 'geojson'
import type { ColumnMeta } from 'flatgeobuf/lib/mjs/column-meta.js'
import { ColumnType } from 'flatgeobuf/lib/mjs/flat-geobuf/column-type.js'
import { GeometryType } from 'flatgeobuf/lib/mjs/flat-geobuf/geometry-type.js'
import { buildFeature } from 'flatgeobuf/lib/mjs/generic/feature.js'
import { buildHeader } from 'flatgeobuf/lib/mjs/generic/featurecollection.js'
import { deserialize } from 'flatgeobuf/lib/mjs/geojson.js'
import { parseGC, parseGeometry } from 'flatgeobuf/lib/mjs/geojson/geometry.js'
import type { HeaderMeta } from 'flatgeobuf/lib/mjs/header-meta.js'
import { coerce, type DatasetFeature, type FieldInfo, type FieldType } from './features'

/**
 * FlatGeobuf reading and writing with an explicit column schema (the library's own serializer guesses the
 * columns from the first feature only). A feature without geometry is stored as an empty
 * GeometryCollection and read back as null.
 */
const COLUMN_BY_FIELD: Record<FieldType, ColumnType> = {
  string: ColumnType.String,
  number: ColumnType.Double,
  boolean: ColumnType.Bool,
  json: ColumnType.Json,
}

const GEOMETRY_TYPE_BY_NAME: Record<string, GeometryType> = {
  Point: GeometryType.Point,
  MultiPoint: GeometryType.MultiPoint,
  LineString: GeometryType.LineString,
  MultiLineString: GeometryType.MultiLineString,
  Polygon: GeometryType.Polygon,
  MultiPolygon: GeometryType.MultiPolygon,
  GeometryCollection: GeometryType.GeometryCollection,
}

const EMPTY: GeometryCollection = { type: 'GeometryCollection', geometries: [] }

function column(field: FieldInfo): ColumnMeta {
  return {
    name: field.name,
    type: COLUMN_BY_FIELD[field.type],
    title: null,
    description: null,
    width: -1,
    precision: -1,
    scale: -1,
    nullable: true,
    unique: false,
    primary_key: false,
  }
}

export function writeFlatGeobuf(
  features: readonly DatasetFeature[],
  fields: readonly FieldInfo[],
): Uint8Array {
  let type: GeometryType | undefined
  for (const f of features) {
    const t = GEOMETRY_TYPE_BY_NAME[(f.geometry ?? EMPTY).type] ?? GeometryType.Unknown
    if (type === undefined) type = t
    else if (type !== t) type = GeometryType.Unknown
  }
  const header: HeaderMeta = {
    geometryType: type ?? GeometryType.Unknown,
    columns: fields.length > 0 ? fields.map(column) : null,
    envelope: null,
    featuresCount: features.length,
    indexNodeSize: 0,
    crs: { code: 4326, org: 'EPSG', name: 'WGS 84', description: null, wkt: null, code_string: null },
    title: null,
    description: null,
    metadata: null,
  }
  const parts: Uint8Array[] = [
    new Uint8Array([0x66, 0x67, 0x62, 0x03, 0x66, 0x67, 0x62, 0x00]),
    buildHeader(header, 4326),
  ]
  for (const f of features) {
    const props: Record<string, unknown> = {}
    for (const field of fields) {
      let v = coerce(f.properties[field.name], field.type)
      if (field.type === 'json' && v !== null) v = JSON.stringify(v)
      props[field.name] = v
    }
    const g = f.geometry ?? EMPTY
    const parsed = g.type === 'GeometryCollection' ? parseGC(g) : parseGeometry(g as never)
    parts.push(buildFeature(parsed, props as never, header))
  }
  const total = parts.reduce((n, p) => n + p.length, 0)
  const out = new Uint8Array(total)
  let offset = 0
  for (const p of parts) {
    out.set(p, offset)
    offset += p.length
  }
  return out
}

export async function readFlatGeobuf(
  bytes: Uint8Array,
): Promise<{ features: DatasetFeature[]; fields: FieldInfo[]; crs?: number }> {
  if (bytes.length < 12 || bytes[0] !== 0x66 || bytes[1] !== 0x67 || bytes[2] !== 0x62) {
    throw new Error('not a FlatGeobuf file (magic bytes missing)')
  }
  const features: DatasetFeature[] = []
  let fields: FieldInfo[] = []
  let crs: number | undefined
  const headerSeen = (header: HeaderMeta) => {
    crs = header.crs?.code || undefined
    fields = (header.columns ?? []).map((c) => ({
      name: c.name,
      type:
        c.type === ColumnType.Bool
          ? 'boolean'
          : c.type === ColumnType.Json
            ? 'json'
            : c.type === ColumnType.String || c.type === ColumnType.DateTime || c.type === ColumnType.Binary
              ? 'string'
              : 'number',
    }))
  }
  for await (const f of deserialize(bytes, { headerMetaFn: headerSeen } as never)) {
    const feature = f as unknown as { geometry: Geometry | null; properties?: Record<string, unknown> }
    let geometry = feature.geometry
    if (geometry && geometry.type === 'GeometryCollection' && geometry.geometries.length === 0)
      geometry = null
    const properties: Record<string, unknown> = {}
    for (const field of fields) {
      let v = feature.properties?.[field.name] ?? null
      if (field.type === 'json' && typeof v === 'string') {
        try {
          v = JSON.parse(v)
        } catch {
          /* keep the text */
        }
      }
      properties[field.name] = v
    }
    features.push({ geometry, properties })
  }
  return { features, fields, crs }
}
