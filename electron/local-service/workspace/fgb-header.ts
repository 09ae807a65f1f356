import * as flatbuffers from 'flatbuffers'
import type { Geometry } from 'geojson'
import type { ColumnMeta } from 'flatgeobuf/lib/mjs/column-meta.js'
import { ColumnType } from 'flatgeobuf/lib/mjs/flat-geobuf/column-type.js'
import { fromByteBuffer as headerFromByteBuffer, type HeaderMeta } from 'flatgeobuf/lib/mjs/header-meta.js'
import { NODE_ITEM_BYTE_LEN } from 'flatgeobuf/lib/mjs/packedrtree.js'
import type { FieldInfo, FieldType } from './features'
import { checkSizePrefixed, FlatBufferError, HEADER } from './flatbuffer-check'

/** FlatGeobuf reading: what a read gives, its error, and the header checked and read. */
/** A feature as read back: its geometry and properties, or why it could not be decoded. */
export interface FgbFeature {
  geometry: Geometry | null
  properties: Record<string, unknown>
  problem?: string
}

export class FlatGeobufError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FlatGeobufError'
  }
}

const MAGIC = [0x66, 0x67, 0x62, 0x03, 0x66, 0x67, 0x62]
/** The smallest a size-prefixed feature can be: length, root offset, vtable offset, an empty vtable. */
const MIN_FEATURE_BYTES = 12

/** Bytes of a packed Hilbert R-tree over `count` items with `nodeSize` children per node; bounded loop. */
function indexBytes(count: number, nodeSize: number): number {
  let n = count
  let nodes = n
  while (n > 1) {
    n = Math.ceil(n / nodeSize)
    nodes += n
  }
  return nodes * NODE_ITEM_BYTE_LEN
}

function fieldType(type: ColumnType): FieldType {
  if (type === ColumnType.Bool) return 'boolean'
  if (type === ColumnType.Json) return 'json'
  if (type === ColumnType.String || type === ColumnType.DateTime || type === ColumnType.Binary)
    return 'string'
  return 'number'
}

/** A file's header as read and checked, and where its features start (past any index). */
export interface HeaderRead {
  header: HeaderMeta
  columns: ColumnMeta[]
  fields: FieldInfo[]
  declared: number
  /** The first feature's offset. */
  offset: number
}

/**
 * Check and read the header at the start of `bytes` (8-aligned), of a file `total` bytes long: its magic
 * bytes, structure and content, its feature count against what the file can hold and its index's size
 * against what remains. Throws FlatGeobufError naming what is wrong.
 */
export function readHeader(bytes: Uint8Array, view: DataView, total: number): HeaderRead {
  if (bytes.length < 12 || MAGIC.some((b, i) => bytes[i] !== b)) {
    if (bytes[0] === 0x66 && bytes[1] === 0x67 && bytes[2] === 0x62 && bytes[3] !== 0x03) {
      throw new FlatGeobufError(`FlatGeobuf version ${bytes[3]} is not supported (version 3 is)`)
    }
    throw new FlatGeobufError('not a FlatGeobuf file (magic bytes missing)')
  }
  let offset: number
  try {
    offset = checkSizePrefixed(bytes, view, 8, HEADER, 'the header')
  } catch (error) {
    if (error instanceof FlatBufferError) throw new FlatGeobufError(error.message)
    throw error
  }
  const bb = new flatbuffers.ByteBuffer(bytes)
  bb.setPosition(8)
  let header: HeaderMeta
  try {
    header = headerFromByteBuffer(bb)
  } catch (error) {
    // The structure is sound; what is left is content the library refuses, such as a column without a name.
    throw new FlatGeobufError(`the header is not usable: ${(error as Error).message}`)
  }
  const fields: FieldInfo[] = (header.columns ?? []).map((c) => ({ name: c.name, type: fieldType(c.type) }))
  const declared = header.featuresCount
  const room = Math.floor((total - offset) / MIN_FEATURE_BYTES)
  if (!Number.isFinite(declared) || declared > room) {
    throw new FlatGeobufError(
      `the header declares ${declared} features, more than the ${total - offset} bytes after it can hold (corrupt or truncated)`,
    )
  }
  if (header.indexNodeSize === 1) throw new FlatGeobufError('the header declares an index node size of 1')
  if (header.indexNodeSize > 1 && declared > 0) {
    const size = indexBytes(declared, header.indexNodeSize)
    if (offset + size > total) {
      throw new FlatGeobufError(
        `the spatial index of ${declared} features needs ${size} bytes but ${total - offset} remain (truncated?)`,
      )
    }
    offset += size
  }
  return { header, columns: header.columns ?? [], fields, declared, offset }
}

/** Whether the point reader takes these columns (names that repeat take the library's path). */
export const pointReadable = (columns: readonly ColumnMeta[]): boolean =>
  new Set(columns.map((c) => c.name)).size === columns.length

/** Whether points with these fields can be held column-wise (a field named __proto__ would not read back the same). */
export const columnReadable = (fields: readonly FieldInfo[]): boolean =>
  !fields.some((f) => f.name === '__proto__')
