import { debuglog } from 'node:util'
import type { Geometry, Position } from 'geojson'
import initGeosJs from 'geos-wasm'
import { geojsonToGeosGeom } from 'geos-wasm/helpers'

/** The GEOS module (GEOS 3.13 compiled to WebAssembly). One instance per thread. */
export type Geos = Awaited<ReturnType<typeof initGeosJs>>
/** A pointer to a GEOS geometry inside the WebAssembly heap. */
export type GeomPtr = number

let instance: Promise<Geos> | undefined

let loaded: Geos | undefined

/** The debug log of the engine: shown with `NODE_DEBUG=geos` (Node's debug log), silent otherwise. */
const debugLog = debuglog('geos')

/** Where GEOS's notices go (e.g. "Self-intersection at or near point 2 2", printed by every validity check). */
let noticeSink: (message: string) => void = (message) => debugLog('notice: %s', message)

/** Send GEOS's notices to `sink` (tests); returns a function that puts the previous sink back. */
export function onGeosNotice(sink: (message: string) => void): () => void {
  const previous = noticeSink
  noticeSink = sink
  return () => {
    noticeSink = previous
  }
}

export function loadGeos(): Promise<Geos> {
  // Notices go to the debug log rather than geos-wasm's default, the console: an invalid drawing is
  // answered with its reason; the notice repeats it as noise on the service's output.
  instance ??= initGeosJs({ noticeHandler: (message) => noticeSink(message) }).then((geos) => (loaded = geos))
  return instance
}

/** Size of this thread's GEOS WebAssembly heap (0 before GEOS is loaded); it grows and never shrinks. */
export function geosHeapBytes(): number {
  return loaded?.Module.HEAP8.byteLength ?? 0
}

/** GEOS geometry type ids (geos_c.h). */
const GEOS_MULTILINESTRING = 5
const GEOS_MULTIPOLYGON = 6

function sequence(geos: Geos, positions: Position[]): number {
  const n = positions.length
  const ptr = geos.Module._malloc(n * 16)
  const heap = geos.Module.HEAPF64
  let at = ptr / 8
  for (let i = 0; i < n; i++) {
    const p = positions[i]!
    heap[at++] = p[0]!
    heap[at++] = p[1]!
  }
  const seq = geos.GEOSCoordSeq_copyFromBuffer(ptr, n, 0, 0)
  geos.Module._free(ptr)
  return seq
}

function polygon(geos: Geos, rings: Position[][]): GeomPtr {
  if (rings.length === 0) return geos.GEOSGeom_createEmptyPolygon()
  const shell = geos.GEOSGeom_createLinearRing(sequence(geos, rings[0]!))
  if (!shell) throw new Error('a polygon ring could not be built (fewer than 4 positions or not closed)')
  const holes = rings.slice(1).map((r) => geos.GEOSGeom_createLinearRing(sequence(geos, r)))
  if (holes.some((h) => !h))
    throw new Error('a polygon hole could not be built (fewer than 4 positions or not closed)')
  let array = 0
  if (holes.length > 0) {
    array = geos.Module._malloc(4 * holes.length)
    geos.Module.HEAPU32.set(holes, array / 4)
  }
  const ptr = geos.GEOSGeom_createPolygon(shell, array, holes.length)
  if (array) geos.Module._free(array)
  return ptr
}

function collection(geos: Geos, type: number, parts: GeomPtr[]): GeomPtr {
  if (parts.length === 0) return geos.GEOSGeom_createEmptyCollection(type)
  const array = geos.Module._malloc(4 * parts.length)
  geos.Module.HEAPU32.set(parts, array / 4)
  const ptr = geos.GEOSGeom_createCollection(type, array, parts.length)
  geos.Module._free(array)
  return ptr
}

/**
 * A GeoJSON geometry as a GEOS geometry (2D); the caller destroys it. Throws on structurally broken input.
 * Coordinates go straight into the WebAssembly heap, one buffer per ring or line.
 */
export function toGeos(geos: Geos, geometry: Geometry): GeomPtr {
  let ptr: GeomPtr
  switch (geometry.type) {
    case 'Point':
      ptr =
        geometry.coordinates.length >= 2
          ? geos.GEOSGeom_createPointFromXY(geometry.coordinates[0]!, geometry.coordinates[1]!)
          : geos.GEOSGeom_createEmptyPoint()
      break
    case 'LineString':
      ptr = geos.GEOSGeom_createLineString(sequence(geos, geometry.coordinates))
      break
    case 'Polygon':
      ptr = polygon(geos, geometry.coordinates)
      break
    case 'MultiPolygon':
      ptr = collection(
        geos,
        GEOS_MULTIPOLYGON,
        geometry.coordinates.map((p) => polygon(geos, p)),
      )
      break
    case 'MultiLineString':
      ptr = collection(
        geos,
        GEOS_MULTILINESTRING,
        geometry.coordinates.map((l) => geos.GEOSGeom_createLineString(sequence(geos, l))),
      )
      break
    default:
      ptr = geojsonToGeosGeom(geometry as never, geos as never) as number
  }
  if (!ptr) throw new Error(`GEOS could not build the ${geometry.type}`)
  return ptr
}

function readString(geos: Geos, ptr: number): string {
  const text = geos.Module.UTF8ToString(ptr)
  geos.GEOSFree(ptr)
  return text
}

let wktWriter: number | undefined

export function toWkt(geos: Geos, ptr: GeomPtr): string {
  if (wktWriter === undefined) {
    wktWriter = geos.GEOSWKTWriter_create()
    geos.GEOSWKTWriter_setTrim(wktWriter, 1)
    geos.GEOSWKTWriter_setOutputDimension(wktWriter, 2)
  }
  return readString(geos, geos.GEOSWKTWriter_write(wktWriter, ptr))
}

export interface Validity {
  valid: boolean
  /** GEOS's reason, e.g. `Self-intersection[5 5]`. */
  reason?: string
  /** Where the problem is, when GEOS says. */
  location?: [number, number]
}

/** GEOS validity with the reason and the location of the first problem. */
export function validity(geos: Geos, ptr: GeomPtr): Validity {
  const result = geos.GEOSisValid(ptr)
  if (result === 1) return { valid: true }
  const reason = readString(geos, geos.GEOSisValidReason(ptr))
  const match = /\[(-?[\d.eE+-]+) (-?[\d.eE+-]+)\]$/.exec(reason)
  return match
    ? { valid: false, reason, location: [Number(match[1]), Number(match[2])] }
    : { valid: false, reason }
}

/** GEOS MakeValid (the structure-preserving method), for callers that ask for a repair. */
export function makeValid(geos: Geos, ptr: GeomPtr): GeomPtr {
  return geos.GEOSMakeValid(ptr)
}

export function destroy(geos: Geos, ptr: GeomPtr): void {
  if (ptr) geos.GEOSGeom_destroy(ptr)
}
