import { promises as fs, readFileSync } from 'node:fs'
import { writeFileAtomic } from '../../../base/atomic-write'

/**
 * The stored road network: a compact, flat graph of typed arrays (compressed: a graph node is an
 * intersection or a way's end, an edge a run of way segments between two graph nodes), with the full
 * geometry of each edge and a packed R-tree of the edges for snapping.
 *
 * File layout: magic `GARN`, format version (u32 LE), header length (u32 LE), the header as UTF-8 JSON,
 * zero padding to a multiple of 8, then each array of `header.arrays` at its offset (relative to the start
 * of the data section, 8-byte aligned). Loading is one read and typed-array views on it: no parsing.
 */
export const GRAPH_MAGIC = 'GARN'
/** Bump when the layout or the meaning of the attribute table (profiles) changes: older files are refused. */
export const GRAPH_FORMAT_VERSION = 1

/** One profile's view of an edge attribute: access forward/backward (0 no, 1 yes, 2 penalized), speed km/h. */
export type AttrView = [forward: number, backward: number, speed: number]

export interface EdgeAttribute {
  /** Highway class id (index into HIGHWAY_CLASSES). */
  cls: number
  /** One view per profile, in PROFILES order. */
  views: AttrView[]
}

export interface NetworkHeader {
  /** Stable id of the network (file name without extension for imported ones). */
  id: string
  name: string
  /** Credit shown with the network, e.g. "OpenStreetMap contributors, ODbL". */
  attribution: string
  /** Where it was built from (file name or package path), for the user's information. */
  source: string
  /** ISO time of the build. */
  built: string
  /** IANA time zone the time-dependent speed model reads hours in. */
  timeZone: string
  /** [minLon, minLat, maxLon, maxLat] of the edges. */
  bbox: [number, number, number, number]
  /** Latitude whose cosine scales longitudes in the snapping index. */
  indexLat: number
  attributes: EdgeAttribute[]
  counts: { nodes: number; edges: number; coords: number; ways: number }
  arrays: Array<{ name: ArrayName; type: ArrayType; length: number; offset: number }>
}

export type ArrayType = 'Int32' | 'Uint32' | 'Uint16' | 'Uint8'
type Typed = Int32Array | Uint32Array | Uint16Array | Uint8Array

export const ARRAY_NAMES = [
  'nodeLon',
  'nodeLat',
  'edgeU',
  'edgeV',
  'edgeAttr',
  'edgeLenDm',
  'geomOffset',
  'coordLon',
  'coordLat',
  'edgeIndex',
] as const
export type ArrayName = (typeof ARRAY_NAMES)[number]

/** The arrays of a network; lon/lat in 1e-7 degrees, lengths in decimetres. */
export interface NetworkArrays {
  /** Graph node coordinates. */
  nodeLon: Int32Array
  nodeLat: Int32Array
  /** Edge e runs from graph node edgeU[e] to edgeV[e] along coords geomOffset[e]..geomOffset[e+1]-1. */
  edgeU: Uint32Array
  edgeV: Uint32Array
  edgeAttr: Uint16Array
  edgeLenDm: Uint32Array
  geomOffset: Uint32Array
  coordLon: Int32Array
  coordLat: Int32Array
  /** Flatbush data of the edge boxes, item e = edge e (x = lon·cos(indexLat), y = lat, degrees). */
  edgeIndex: Uint8Array
}

export interface NetworkData {
  header: NetworkHeader
  arrays: NetworkArrays
}

const CTOR = { Int32: Int32Array, Uint32: Uint32Array, Uint16: Uint16Array, Uint8: Uint8Array } as const

function typeOf(a: Typed): ArrayType {
  if (a instanceof Int32Array) return 'Int32'
  if (a instanceof Uint32Array) return 'Uint32'
  if (a instanceof Uint16Array) return 'Uint16'
  return 'Uint8'
}

const pad8 = (n: number) => (n + 7) & ~7

/** The network as the bytes of its file. */
export function encodeNetwork(data: NetworkData): Uint8Array {
  const arrays: NetworkHeader['arrays'] = []
  let offset = 0
  for (const name of ARRAY_NAMES) {
    const a = data.arrays[name] as Typed
    arrays.push({ name, type: typeOf(a), length: a.length, offset })
    offset = pad8(offset + a.byteLength)
  }
  const header = JSON.stringify({ ...data.header, arrays })
  const headerBytes = new TextEncoder().encode(header)
  const dataStart = pad8(12 + headerBytes.length)
  const out = new Uint8Array(dataStart + offset)
  out.set(new TextEncoder().encode(GRAPH_MAGIC), 0)
  const view = new DataView(out.buffer)
  view.setUint32(4, GRAPH_FORMAT_VERSION, true)
  view.setUint32(8, headerBytes.length, true)
  out.set(headerBytes, 12)
  for (const entry of arrays) {
    const a = data.arrays[entry.name] as Typed
    out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), dataStart + entry.offset)
  }
  return out
}

export class NetworkFileError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'NetworkFileError'
  }
}

/** Read the header of a network file's bytes (validates magic and version). */
function readHeader(bytes: Uint8Array, what: string): { header: NetworkHeader; dataStart: number } {
  if (bytes.length < 12 || new TextDecoder().decode(bytes.subarray(0, 4)) !== GRAPH_MAGIC)
    throw new NetworkFileError(`${what} is not a road network file`)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const version = view.getUint32(4, true)
  if (version !== GRAPH_FORMAT_VERSION)
    throw new NetworkFileError(
      `${what} has road network format ${version}; this version reads format ${GRAPH_FORMAT_VERSION}: import the extract again`,
    )
  const length = view.getUint32(8, true)
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + length))) as NetworkHeader
  return { header, dataStart: pad8(12 + length) }
}

/** Views on a network file's bytes (no copy when the bytes are 8-byte aligned). */
export function decodeNetwork(input: Uint8Array, what = 'the file'): NetworkData {
  const { header, dataStart } = readHeader(input, what)
  const bytes = (input.byteOffset & 7) === 0 ? input : input.slice()
  const arrays = {} as Record<ArrayName, Typed>
  for (const entry of header.arrays) {
    const Ctor = CTOR[entry.type]
    const start = bytes.byteOffset + dataStart + entry.offset
    if (start + entry.length * Ctor.BYTES_PER_ELEMENT > bytes.byteOffset + bytes.byteLength)
      throw new NetworkFileError(`${what} is truncated`)
    arrays[entry.name] = new Ctor(bytes.buffer as ArrayBuffer, start, entry.length)
  }
  for (const name of ARRAY_NAMES)
    if (!arrays[name]) throw new NetworkFileError(`${what} lacks the array ${name}`)
  return { header, arrays: arrays as unknown as NetworkArrays }
}

export function readNetworkFile(file: string): NetworkData {
  return decodeNetwork(new Uint8Array(readFileSync(file)), file)
}

/** Only the header (for listing networks without loading them). */
export async function readNetworkHeader(file: string): Promise<NetworkHeader> {
  const handle = await fs.open(file, 'r')
  try {
    const head = Buffer.alloc(12)
    await handle.read(head, 0, 12, 0)
    const length = head.readUInt32LE(8)
    const all = Buffer.alloc(12 + Math.min(length, 64 * 1024 * 1024))
    await handle.read(all, 0, all.length, 0)
    return readHeader(new Uint8Array(all.buffer, all.byteOffset, all.length), file).header
  } finally {
    await handle.close()
  }
}

export async function writeNetworkFile(file: string, data: NetworkData): Promise<void> {
  await writeFileAtomic(file, encodeNetwork(data), { mode: 0o644 })
}
