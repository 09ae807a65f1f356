/**
 * A small columnar container: named typed-array columns and string lists in one buffer, so that
 * loading is a read, one decompression and views over the bytes (no parsing of rows).
 *
 * Layout: `GAZC` magic, uint32 header length, a JSON header (format version, metadata and, per
 * column, its type, byte offset and length), zero padding to 8 bytes, then the columns, each starting
 * on an 8-byte boundary. A string list is one UTF-8 text with the strings separated by `\n`.
 * The whole container is stored brotli-compressed (decision 007).
 */
import { promisify } from 'node:util'
import { brotliCompressSync, brotliDecompress, brotliDecompressSync, constants } from 'node:zlib'

const MAGIC = 'GAZC'

type TypedArray = Int8Array | Uint8Array | Int32Array | Uint32Array | Float32Array | Float64Array
type ColumnType = 'i8' | 'u8' | 'i32' | 'u32' | 'f32' | 'f64' | 'strings'

const CTORS = {
  i8: Int8Array,
  u8: Uint8Array,
  i32: Int32Array,
  u32: Uint32Array,
  f32: Float32Array,
  f64: Float64Array,
} as const

interface ColumnEntry {
  type: ColumnType
  offset: number
  length: number
  count: number
}

interface Header {
  version: number
  meta: Record<string, unknown>
  columns: Record<string, ColumnEntry>
}

function typeOf(a: TypedArray): Exclude<ColumnType, 'strings'> {
  if (a instanceof Int8Array) return 'i8'
  if (a instanceof Uint8Array) return 'u8'
  if (a instanceof Int32Array) return 'i32'
  if (a instanceof Uint32Array) return 'u32'
  if (a instanceof Float32Array) return 'f32'
  return 'f64'
}

export type ColumnValue = TypedArray | readonly string[]

/** Serialize columns (uncompressed). */
export function encodeColumns(
  columns: Record<string, ColumnValue>,
  meta: Record<string, unknown>,
  version: number,
): Uint8Array {
  const encoder = new TextEncoder()
  const parts: Array<{ name: string; type: ColumnType; bytes: Uint8Array; count: number }> = []
  for (const [name, value] of Object.entries(columns)) {
    if (Array.isArray(value)) {
      const list = value as readonly string[]
      for (const s of list) if (s.includes('\n')) throw new Error(`column ${name}: a string holds a newline`)
      parts.push({ name, type: 'strings', bytes: encoder.encode(list.join('\n')), count: list.length })
    } else {
      const a = value as TypedArray
      parts.push({
        name,
        type: typeOf(a),
        bytes: new Uint8Array(a.buffer, a.byteOffset, a.byteLength),
        count: a.length,
      })
    }
  }
  const align = (n: number) => (n + 7) & ~7
  const header: Header = { version, meta, columns: {} }
  let offset = 0
  for (const p of parts) {
    header.columns[p.name] = { type: p.type, offset, length: p.bytes.length, count: p.count }
    offset = align(offset + p.bytes.length)
  }
  const headerBytes = encoder.encode(JSON.stringify(header))
  const start = align(8 + headerBytes.length)
  const out = new Uint8Array(start + offset)
  out.set(encoder.encode(MAGIC), 0)
  new DataView(out.buffer).setUint32(4, headerBytes.length, true)
  out.set(headerBytes, 8)
  for (const p of parts) out.set(p.bytes, start + header.columns[p.name]!.offset)
  return out
}

export interface DecodedColumns {
  version: number
  meta: Record<string, unknown>
  typed<T extends TypedArray>(name: string): T
  strings(name: string): string[]
  has(name: string): boolean
}

/** Read columns from an uncompressed container: typed arrays are views over `bytes` (no copy). */
export function decodeColumns(input: Uint8Array): DecodedColumns {
  // Views need 8-byte aligned offsets into their buffer.
  const bytes = input.byteOffset % 8 === 0 ? input : input.slice()
  const decoder = new TextDecoder()
  if (decoder.decode(bytes.subarray(0, 4)) !== MAGIC) throw new Error('not a places gazetteer file')
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, 8).getUint32(4, true)
  const header = JSON.parse(decoder.decode(bytes.subarray(8, 8 + headerLength))) as Header
  const start = (8 + headerLength + 7) & ~7
  const entry = (name: string): ColumnEntry => {
    const e = header.columns[name]
    if (!e) throw new Error(`gazetteer file has no column ${name}`)
    return e
  }
  return {
    version: header.version,
    meta: header.meta,
    has: (name) => name in header.columns,
    typed<T extends TypedArray>(name: string): T {
      const e = entry(name)
      if (e.type === 'strings') throw new Error(`column ${name} holds strings`)
      return new CTORS[e.type](bytes.buffer as ArrayBuffer, bytes.byteOffset + start + e.offset, e.count) as T
    },
    strings(name: string): string[] {
      const e = entry(name)
      if (e.type !== 'strings') throw new Error(`column ${name} is not a string list`)
      if (e.count === 0) return []
      const text = decoder.decode(bytes.subarray(start + e.offset, start + e.offset + e.length))
      return text.split('\n')
    },
  }
}

export function compress(bytes: Uint8Array): Uint8Array {
  return brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_LGWIN]: 24,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  })
}

export function decompress(bytes: Uint8Array): Uint8Array {
  return brotliDecompressSync(bytes)
}

const brotliDecompressAsync = promisify(brotliDecompress)

/** Decompress on libuv's thread pool, leaving the event loop free (the service keeps answering). */
export async function decompressAsync(bytes: Uint8Array): Promise<Uint8Array> {
  return brotliDecompressAsync(bytes)
}
