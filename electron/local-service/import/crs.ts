import type { Geometry, Position } from 'geojson'
import { createRequire } from 'node:module'
import type proj4Module from 'proj4'

/** Raised for anything the importer refuses; the message says what and where. */
export class ImportError extends Error {
  constructor(
    message: string,
    /** `invalid-features` when features failed the checks and skipping them would let the import go on. */
    readonly code?: 'invalid-features',
  ) {
    super(message)
    this.name = 'ImportError'
  }
}

/** proj4, loaded on the first reprojection rather than with the importer (most files need none). */
let proj4: typeof proj4Module | undefined
const loadProj4 = () => (proj4 ??= createRequire(import.meta.url)('proj4') as typeof proj4Module)

const WGS84_CODES = new Set([4326, 4979, 4030, 0])

/** A proj4 definition for an EPSG code that needs no database: WGS84, Web Mercator, NAD83, UTM on WGS84. */
function definitionForEpsg(code: number): string | undefined {
  if (code === 3857 || code === 900913 || code === 3785 || code === 102100) return 'EPSG:3857'
  if (code === 4269) return 'EPSG:4269'
  if (code >= 32601 && code <= 32660) return `+proj=utm +zone=${code - 32600} +datum=WGS84 +units=m +no_defs`
  if (code >= 32701 && code <= 32760)
    return `+proj=utm +zone=${code - 32700} +south +datum=WGS84 +units=m +no_defs`
  return undefined
}

/** The EPSG code in a CRS name such as `EPSG:3857`, `urn:ogc:def:crs:EPSG::3857` or `urn:ogc:def:crs:OGC:1.3:CRS84`. */
export function epsgFromName(name: string): number | undefined {
  if (/CRS84$/i.test(name)) return 4326
  const match = /EPSG:{1,2}(\d+)$/i.exec(name.trim())
  return match ? Number(match[1]) : undefined
}

export type Reprojector = ((p: Position) => Position) | undefined

/** A converter to WGS84 lon/lat for a declared CRS (EPSG code or WKT); undefined when it is WGS84 already. */
export function reprojectorFor(crs: { epsg?: number; wkt?: string; label: string }): Reprojector {
  if (crs.epsg !== undefined && WGS84_CODES.has(crs.epsg)) return undefined
  let definition: string | undefined
  if (crs.epsg !== undefined) definition = definitionForEpsg(crs.epsg)
  if (!definition && crs.wkt) {
    if (/^GEOGCS\["(GCS_)?WGS[ _]?(19)?84"/i.test(crs.wkt.trim())) return undefined
    definition = crs.wkt
  }
  if (!definition) {
    throw new ImportError(
      `the CRS ${crs.label} is not known here; reproject the file to WGS84 (EPSG:4326) first`,
    )
  }
  let converter: proj4Module.Converter
  try {
    converter = loadProj4()(definition, 'EPSG:4326')
  } catch (error) {
    throw new ImportError(`the CRS ${crs.label} could not be read: ${(error as Error).message}`)
  }
  return (p) => {
    const out = converter.forward([p[0]!, p[1]!])
    return [out[0]!, out[1]!]
  }
}

/** The geometry with every position converted. */
export function reprojectGeometry(g: Geometry | null, f: Reprojector): Geometry | null {
  if (!g || !f) return g
  const map = (c: unknown): unknown =>
    Array.isArray(c) && typeof c[0] === 'number' ? f(c as Position) : Array.isArray(c) ? c.map(map) : c
  if (g.type === 'GeometryCollection') {
    return { type: 'GeometryCollection', geometries: g.geometries.map((x) => reprojectGeometry(x, f)!) }
  }
  return { ...g, coordinates: map(g.coordinates) } as Geometry
}
