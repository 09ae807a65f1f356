import type { Geometry } from 'geojson'
import * as flatbuffers from 'flatbuffers'
import { ColumnType } from 'flatgeobuf/lib/mjs/flat-geobuf/column-type.js'
import { Feature } from 'flatgeobuf/lib/mjs/flat-geobuf/feature.js'
import { parseProperties } from 'flatgeobuf/lib/mjs/generic/feature.js'
import { fromFeature } from 'flatgeobuf/lib/mjs/geojson/feature.js'
import type { FieldInfo } from './features'
import {
  columnReadable,
  FlatGeobufError,
  pointReadable,
  readHeader,
  type FgbFeature,
  type HeaderRead,
} from './fgb-header'
import { PointReader, PointSink } from './fgb-points'
import { fieldTemplate, propertyValuesOf } from './fgb-properties'
import type { PointColumns } from './point-columns'
import { checkSizePrefixed, FEATURE, FlatBufferError } from './flatbuffer-check'

/**
 * FlatGeobuf reading, the public entry: a file whole, as features or point columns, or piecewise from a
 * byte source. The stages are in `fgb-header`, `fgb-properties` and `fgb-points`; writing is in `fgb-write`
 * (and `fgb-stream`), whose `writeFlatGeobuf` this module also exports.
 */
export { FlatGeobufError, type FgbFeature } from './fgb-header'
export { writeFlatGeobuf } from './fgb-write'

/**
 * Read a FlatGeobuf file, trusting nothing it declares: the magic bytes and version, the header's and each
 * feature's FlatBuffers structure (checked before the library reads it), the index size against the bytes
 * that remain, the declared feature count against what the bytes can hold and against what was found.
 * Structural damage throws FlatGeobufError; a feature whose content cannot be decoded carries `problem`.
 * Work is linear in the file's size whatever it holds. `fast` false reads every feature the general way,
 * not points the direct way first (the same answer; tests compare the two).
 */
export function readFlatGeobuf(
  input: Uint8Array,
  fast = true,
): {
  features: FgbFeature[]
  fields: FieldInfo[]
  crs?: number
} {
  const read = decodeFlatGeobuf(input, false, fast)
  return { features: read.features!, fields: read.fields, crs: read.crs }
}

/**
 * `readFlatGeobuf`; with `columnar`, a file of 2D points (every feature one, decoded without a problem, the
 * fields' names distinct) is read as `PointColumns` instead of a feature list: `points.features()` is then
 * what `features` would have been. Any other file gives `features`, as `readFlatGeobuf` does.
 */
export function readFlatGeobufTable(input: Uint8Array, columnar = true, fast = true): TableRead {
  const read = decodeFlatGeobuf(input, columnar, fast)
  return read.points
    ? { points: read.points, fields: read.fields, crs: read.crs }
    : { features: read.features!, fields: read.fields, crs: read.crs }
}

export type TableRead = { fields: FieldInfo[]; crs?: number } & (
  { points: PointColumns; features?: undefined } | { features: FgbFeature[]; points?: undefined }
)

/** Where the bytes of a file read piecewise come from (a file descriptor, in the workspace). */
export interface ByteSource {
  /** The file's length in bytes. */
  readonly size: number
  /** Read up to `length` bytes at file position `position` into `into` from `at`; the count read, 0 at the end. */
  read(into: Uint8Array, at: number, length: number, position: number): number
}

/** Read from `position` into `into` from `at` until it is full or the file ends; how far `into` is filled. */
function fill(source: ByteSource, into: Uint8Array, at: number, position: number): number {
  while (at < into.length) {
    const n = source.read(into, at, into.length - at, position)
    if (n <= 0) break
    at += n
    position += n
  }
  return at
}

/** The whole file, as read (shorter than `size` if it shrank meanwhile). */
function readAll(source: ByteSource): Uint8Array {
  const bytes = new Uint8Array(source.size)
  const n = fill(source, bytes, 0, 0)
  return n === bytes.length ? bytes : bytes.subarray(0, n)
}

/**
 * Bytes of the buffer a file is read through piecewise: small enough to stay in the processor's cache, and
 * reused, as the pages of a fresh buffer the size of the file cost more to touch than reading the file
 * does (368 ms against 15 ms for 112 MB, 1,000,000 points). A feature larger than this takes the
 * whole-file path.
 */
const CHUNK_BYTES = 1 << 20
let chunk: Uint8Array | undefined

/**
 * `readFlatGeobufTable` of a file read piecewise: a file of 2D points whose every feature the direct path
 * reads (`PointReader.fast`) is decoded from one reused buffer, a chunk at a time, without the file's bytes
 * in memory at once (nor its index's, which no point read needs). At the first feature that is anything
 * else (a polygon, a point with z, one misaligned, damaged, truncated or larger than a chunk), or a count
 * that does not match the header's, it reads the whole file and decodes that as `readFlatGeobufTable`
 * does: the same answer, and the same error, as reading it whole. `chunkBytes` is for tests.
 */
export function readFlatGeobufTableFrom(source: ByteSource, chunkBytes = CHUNK_BYTES): TableRead {
  const whole = () => readFlatGeobufTable(readAll(source), true)
  const size = source.size
  if (size <= chunkBytes) return whole()
  const buffer =
    chunkBytes === CHUNK_BYTES ? (chunk ??= new Uint8Array(CHUNK_BYTES)) : new Uint8Array(chunkBytes)
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength)
  let filled = fill(source, buffer, 0, 0)
  let head: HeaderRead
  try {
    head = readHeader(buffer.subarray(0, filled), view, size)
  } catch {
    // The header is damaged or larger than a chunk: the whole-file path names what is wrong.
    return whole()
  }
  const { header, columns, fields, declared } = head
  if (
    !pointReadable(columns) ||
    !columnReadable(fields) ||
    // Binary values are views of the bytes they were read from: the file's, not a reused buffer's.
    columns.some((c) => c.type === ColumnType.Binary)
  )
    return whole()
  const reader = new PointReader(
    buffer,
    view,
    new flatbuffers.ByteBuffer(buffer),
    header.geometryType,
    columns,
    fields,
  )
  const sink = new PointSink(declared, columns, size - head.offset)
  /** The file position of the buffer's first byte, a multiple of 8 (so positions in both align alike). */
  let base = 0
  let at = head.offset
  while (at < size) {
    if (at % 8 !== 0) return whole()
    let p = at - base
    if (p + 4 > filled || p + 4 + view.getUint32(p, true) > filled) {
      // The feature runs past the bytes read: unless the file ends in it (truncated), move what was read
      // of it to the buffer's start and read on (the first feature may start past them, after an index).
      if (base + filled >= size) return whole()
      buffer.copyWithin(0, p, filled)
      filled = Math.max(0, filled - p)
      base = at
      p = 0
      filled = fill(source, buffer, filled, base + filled)
      if (4 > filled || 4 + view.getUint32(0, true) > filled) return whole()
    }
    const next = reader.fast(p, filled)
    if (next < 0) return whole()
    sink.add(reader)
    at += next - p
  }
  if (declared > 0 && sink.n !== declared) return whole()
  return { points: sink.columns(fields), fields, crs: header.crs?.code || undefined }
}

function decodeFlatGeobuf(
  input: Uint8Array,
  columnar: boolean,
  fast = true,
): { features?: FgbFeature[]; points?: PointColumns; fields: FieldInfo[]; crs?: number } {
  // Typed views of doubles inside the file need its start 8-aligned.
  const bytes = input.byteOffset % 8 === 0 ? input : input.slice()
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const read = readHeader(bytes, view, bytes.length)
  const { header, columns, fields, declared } = read
  let offset = read.offset
  const bb = new flatbuffers.ByteBuffer(bytes)
  let features: FgbFeature[] = []
  const headerMeta = { ...header, columns }
  const template = fieldTemplate(fields)
  const protoAt = fields.findIndex((f) => f.name === '__proto__')
  // The direct path for 2D points.
  const points = pointReadable(columns)
    ? new PointReader(bytes, view, bb, header.geometryType, columns, fields)
    : undefined
  // Column-wise while every feature is a point.
  let sink =
    columnar && points && columnReadable(fields)
      ? new PointSink(declared, columns, bytes.length - offset)
      : undefined
  while (offset < bytes.length) {
    const id = sink ? sink.n : features.length
    // A feature that follows one of a length not a multiple of 8 (as this module wrote them before it
    // padded) is misaligned for typed views of its doubles: read it from an aligned copy.
    const aligned = offset % 8 === 0
    if (aligned && points && fast) {
      const next = points.fast(offset, bytes.length)
      if (next >= 0) {
        if (sink) sink.add(points)
        else features.push(points.point())
        offset = next
        continue
      }
    }
    const length = offset + 4 <= bytes.length ? view.getUint32(offset, true) : 0
    const src = aligned ? bytes : bytes.slice(offset, Math.min(bytes.length, offset + 4 + length))
    const at = aligned ? offset : 0
    let end: number
    try {
      end = checkSizePrefixed(src, aligned ? view : new DataView(src.buffer), at, FEATURE, 'feature', id)
    } catch (error) {
      if (error instanceof FlatBufferError)
        throw new FlatGeobufError(`${error.message} (truncated or corrupt)`)
      throw error
    }
    const srcBb = aligned ? bb : new flatbuffers.ByteBuffer(src)
    srcBb.setPosition(at)
    if (sink) {
      if (aligned && points!.decode() === 1) {
        sink.add(points!)
        offset += end - at
        continue
      }
      // Not a point (or not decoded): the features so far as objects, and this one and the rest as before.
      features = sink.columns(fields).features()
      sink = undefined
      srcBb.setPosition(at)
    }
    if (aligned && points) {
      const point = points.read()
      if (point) {
        features.push(point)
        offset += end - at
        continue
      }
      srcBb.setPosition(at)
    }
    const feature = Feature.getSizePrefixedRootAsFeature(srcBb)
    offset += end - at
    let decoded: { geometry: unknown; properties?: unknown }
    let byIndex: unknown[] | undefined
    try {
      decoded = feature.geometry()
        ? fromFeature(id, feature, headerMeta)
        : { geometry: null, properties: parseProperties(feature, headerMeta.columns) }
      if (protoAt >= 0) {
        const srcView = aligned ? view : new DataView(src.buffer, src.byteOffset, src.byteLength)
        byIndex = propertyValuesOf(feature, srcBb, src, srcView, columns)
      }
    } catch (error) {
      features.push({
        geometry: null,
        properties: {},
        problem: `its content could not be decoded (${(error as Error).message.slice(0, 80)})`,
      })
      continue
    }
    let geometry = decoded.geometry as Geometry | null
    if (geometry && geometry.type === 'GeometryCollection' && geometry.geometries.length === 0)
      geometry = null
    // The library's properties object is keyed by name: a name it has no value for would read an
    // inherited one (`constructor`), and it drops a `__proto__` value (or makes it the prototype). Own
    // values only, and that field's value read by its column index.
    const named = (decoded.properties ?? {}) as Record<string, unknown>
    const properties = { ...template }
    for (const [k, field] of fields.entries()) {
      let v =
        (k === protoAt ? byIndex![k] : Object.hasOwn(named, field.name) ? named[field.name] : null) ?? null
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
  const found = sink ? sink.n : features.length
  if (declared > 0 && found !== declared) {
    throw new FlatGeobufError(
      `the header declares ${declared} features but the file holds ${found} (truncated?)`,
    )
  }
  const crs = header.crs?.code || undefined
  return sink ? { points: sink.columns(fields), fields, crs } : { features, fields, crs }
}
