import type { Feature, Geometry, Position } from 'geojson'
import { ImportError } from './crs'
import type { Candidate } from './validate'

/**
 * KML: togeojson reads each Placemark's properties (name, description, ExtendedData, styles, times); the
 * geometry is read here, strictly and as GDAL reads it. togeojson drops a position that is not numbers
 * (`NaN,NaN`, `abc,def`), a Point or ring it cannot use, closes open rings and turns every MultiGeometry
 * into a GeometryCollection: a Placemark then imported without its geometry, or with another shape, and
 * nobody told. Here a position is two or three finite numbers or the Placemark is invalid (named, with
 * the text), rings are left as written (the RFC 7946 checks refuse an open one), and a MultiGeometry of
 * Points, LineStrings or Polygons only is a MultiPoint, MultiLineString or MultiPolygon (GDAL's reading,
 * one part included); of mixed or nested parts a GeometryCollection of them.
 */

/** Why a Placemark's geometry cannot be read; becomes the candidate's problem. */
class KmlGeometryError extends Error {}

type El = Element

const GEOMETRY_ELEMENTS = new Set([
  'Point',
  'LineString',
  'LinearRing',
  'Polygon',
  'MultiGeometry',
  'Track',
  'MultiTrack',
])

const childElements = (el: El): El[] =>
  Array.from(el.childNodes).filter((n): n is El => n.nodeType === 1) as El[]

const children = (el: El, name: string): El[] => childElements(el).filter((c) => c.localName === name)

/** The first descendant element named `name` (any prefix), as togeojson finds `<coordinates>`. */
function descendant(el: El, name: string): El | undefined {
  for (const c of childElements(el)) {
    if (c.localName === name) return c
    const found = descendant(c, name)
    if (found) return found
  }
  return undefined
}

const quoted = (s: string) => JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s)

/** `lon,lat[,alt]` tuples separated by white space (spaces around a comma allowed), each number finite. */
function positions(el: El | undefined, what: string): Position[] {
  const text = (el?.textContent ?? '').trim().replace(/\s*,\s*/g, ',')
  if (text === '') return []
  return text.split(/\s+/).map((tuple) => {
    const parts = tuple.split(',')
    const numbers = parts.map((p) => (p === '' ? NaN : Number(p)))
    if (parts.length < 2 || parts.length > 3 || !numbers.every(Number.isFinite)) {
      throw new KmlGeometryError(
        `${what}: the position ${quoted(tuple)} is not longitude,latitude[,altitude] in finite numbers`,
      )
    }
    return numbers
  })
}

function coordinatesOf(el: El, what: string): Position[] {
  const found = positions(descendant(el, 'coordinates'), what)
  if (found.length === 0) throw new KmlGeometryError(`${what} has no coordinates`)
  return found
}

/** A gx:Track's `<gx:coord>lon lat alt</gx:coord>` positions: a LineString, or a Point when there is one. */
function track(el: El): Geometry {
  const coords = children(el, 'coord').map((c) => {
    const text = (c.textContent ?? '').trim()
    const numbers = text.split(/\s+/).map(Number)
    if (numbers.length < 2 || numbers.length > 3 || !numbers.every(Number.isFinite)) {
      throw new KmlGeometryError(
        `a gx:Track position ${quoted(text)} is not longitude latitude[ altitude] in finite numbers`,
      )
    }
    return numbers
  })
  if (coords.length === 0) throw new KmlGeometryError('a gx:Track has no gx:coord')
  return coords.length === 1
    ? { type: 'Point', coordinates: coords[0]! }
    : { type: 'LineString', coordinates: coords }
}

function parts(el: El): Geometry[] {
  return childElements(el)
    .filter((c) => GEOMETRY_ELEMENTS.has(c.localName))
    .map(geometryOf)
}

/** Points, LineStrings or Polygons only: their Multi type; anything else: a GeometryCollection. */
function combine(list: Geometry[], what: string): Geometry {
  if (list.length === 0) throw new KmlGeometryError(`${what} holds no geometry`)
  const type = list[0]!.type
  if (list.every((g) => g.type === type)) {
    if (type === 'Point')
      return { type: 'MultiPoint', coordinates: list.map((g) => (g as GeoJSON.Point).coordinates) }
    if (type === 'LineString') {
      return {
        type: 'MultiLineString',
        coordinates: list.map((g) => (g as GeoJSON.LineString).coordinates),
      }
    }
    if (type === 'Polygon')
      return { type: 'MultiPolygon', coordinates: list.map((g) => (g as GeoJSON.Polygon).coordinates) }
  }
  return { type: 'GeometryCollection', geometries: list }
}

function geometryOf(el: El): Geometry {
  switch (el.localName) {
    case 'Point': {
      const found = coordinatesOf(el, 'a Point')
      if (found.length > 1) throw new KmlGeometryError(`a Point has ${found.length} positions, not one`)
      return { type: 'Point', coordinates: found[0]! }
    }
    case 'LineString':
    case 'LinearRing':
      return { type: 'LineString', coordinates: coordinatesOf(el, `a ${el.localName}`) }
    case 'Polygon': {
      const outer = children(el, 'outerBoundaryIs').flatMap((b) => children(b, 'LinearRing'))
      if (outer.length !== 1) {
        throw new KmlGeometryError(`a Polygon needs one outerBoundaryIs LinearRing, not ${outer.length}`)
      }
      const inner = children(el, 'innerBoundaryIs').flatMap((b) => children(b, 'LinearRing'))
      return {
        type: 'Polygon',
        coordinates: [
          coordinatesOf(outer[0]!, 'the outer ring of a Polygon'),
          ...inner.map((ring, i) => coordinatesOf(ring, `inner ring ${i + 1} of a Polygon`)),
        ],
      }
    }
    case 'MultiGeometry':
      return combine(parts(el), 'a MultiGeometry')
    case 'MultiTrack':
      return combine(parts(el), 'a gx:MultiTrack')
    default:
      return track(el)
  }
}

/** A Placemark's geometry (null when it has none, as KML allows), or why it cannot be read. */
function placemarkGeometry(placemark: El): { geometry: Geometry | null } | { problem: string } {
  try {
    const list = parts(placemark)
    if (list.length === 0) return { geometry: null }
    // KML allows one geometry per Placemark; more are read as a MultiGeometry would be.
    return { geometry: list.length === 1 ? list[0]! : combine(list, 'the Placemark') }
  } catch (error) {
    if (error instanceof KmlGeometryError) return { problem: error.message }
    throw error
  }
}

/** How an error names a Placemark: its position, and its name or id when it has one. */
function placemarkWhere(i: number, placemark: El | undefined): string {
  const name = placemark && children(placemark, 'name')[0]?.textContent?.trim()
  const id = placemark?.getAttribute('id')
  const label = name ? quoted(name) : id ? `id ${quoted(id)}` : ''
  return label ? `feature ${i} (${label})` : `feature ${i}`
}

/** ExtendedData values named `__proto__`, which togeojson's plain objects cannot hold (its types). */
function protoValue(placemark: El, schemaTypes: Map<string, string>): { value: unknown } | undefined {
  const data = descendant(placemark, 'ExtendedData')
  if (!data) return undefined
  let found: { value: unknown } | undefined
  for (const el of childElements(data).flatMap((c) =>
    c.localName === 'SchemaData' ? childElements(c) : [c],
  )) {
    if (el.getAttribute('name') !== '__proto__') continue
    if (el.localName === 'Data') found = { value: descendant(el, 'value')?.textContent ?? '' }
    if (el.localName === 'SimpleData') {
      const text = el.textContent ?? ''
      const type = schemaTypes.get('__proto__') ?? 'string'
      found = {
        value: ['int', 'uint', 'short', 'ushort', 'float', 'double'].includes(type)
          ? Number(text)
          : type === 'bool'
            ? Boolean(text)
            : text,
      }
    }
  }
  return found
}

/** Read a KML text; its XML parser and togeojson are loaded on the first KML read, not with the importer. */
export async function readKml(text: string): Promise<Candidate[]> {
  const [{ DOMParser }, { kml }] = await Promise.all([import('@xmldom/xmldom'), import('@tmcw/togeojson')])
  const errors: string[] = []
  let doc: Document | undefined
  let fc: { features: Array<Feature<Geometry | null>> } | undefined
  try {
    doc = new DOMParser({
      onError: (level: string, message: string) => {
        if (level !== 'warning') errors.push(message)
      },
    }).parseFromString(text, 'text/xml') as unknown as Document
    if (errors.length === 0) fc = kml(doc as never)
  } catch (error) {
    if (error instanceof ImportError) throw error
    errors.push((error as Error).message)
  }
  if (errors.length > 0 || !doc || !fc) {
    throw new ImportError(`malformed KML: ${(errors[0] ?? 'unreadable').split('\n')[0]!.slice(0, 160)}`)
  }
  // togeojson yields the Placemarks first, in document order (`getElementsByTagName`), then ground
  // overlays and network links, whose geometry stays its own.
  const placemarks = Array.from(doc.getElementsByTagName('Placemark')) as El[]
  const schemaTypes = new Map(
    (Array.from(doc.getElementsByTagName('SimpleField')) as El[]).map((f) => [
      f.getAttribute('name') ?? '',
      f.getAttribute('type') ?? 'string',
    ]),
  )
  return fc.features.map((f, i): Candidate => {
    const placemark = placemarks[i]
    const where = placemarkWhere(i, placemark)
    if (!placemark) return { where, geometry: f.geometry, properties: f.properties }
    const read = placemarkGeometry(placemark)
    if ('problem' in read) return { where, problem: read.problem }
    let properties = f.properties
    const proto = protoValue(placemark, schemaTypes)
    if (proto) {
      // Rebuilt as own keys, then copied (a spread defines keys): `__proto__` an ordinary key, last.
      const own = Object.create(null) as Record<string, unknown>
      for (const [k, v] of Object.entries(properties ?? {})) own[k] = v
      Object.defineProperty(own, '__proto__', { value: proto.value, enumerable: true, writable: true })
      properties = { ...own }
    }
    return { where, geometry: read.geometry, properties }
  })
}
