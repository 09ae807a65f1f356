/**
 * A verifier for the FlatBuffers tables of FlatGeobuf, run before the flatgeobuf library reads them. The
 * library trusts every offset and length it meets (a vector length of 0xffffffff makes it loop for
 * hours, a backward offset makes a cycle), so a file is read only once each table, vtable, string and
 * vector it refers to lies inside the buffer, references point forward, and the number of tables stays
 * proportional to the bytes (shared sub-tables cannot multiply the work).
 */

/** What a field holds, by the FlatBuffers schema of FlatGeobuf (`header.fbs`, `feature.fbs`). */
type Field =
  | { scalar: 1 | 2 | 4 | 8 }
  | { string: true }
  | { vector: 1 | 4 | 8 }
  | { table: () => Schema }
  | { tables: () => Schema }

interface Schema {
  name: string
  /** By field id (the vtable slot). */
  fields: Field[]
  /** The fields as numbers (made on first use: the checker reads them for every table). */
  compiled?: Compiled
}

const SCALAR = 1
const STRING = 2
const VECTOR = 3
const TABLE = 4
const TABLES = 5

interface Compiled {
  /** What each field holds (SCALAR…TABLES). */
  kinds: Uint8Array
  /** A scalar's bytes, a vector's bytes per item. */
  sizes: Uint8Array
  /** The schema of a table's or tables' field. */
  children: Array<Schema | undefined>
  /** How messages name a table of this schema at the root ("feature"). */
  where: string
}

function compile(schema: Schema): Compiled {
  const n = schema.fields.length
  const compiled: Compiled = {
    kinds: new Uint8Array(n),
    sizes: new Uint8Array(n),
    children: [],
    where: schema.name.toLowerCase(),
  }
  schema.fields.forEach((field, id) => {
    if ('scalar' in field) {
      compiled.kinds[id] = SCALAR
      compiled.sizes[id] = field.scalar
    } else if ('string' in field) compiled.kinds[id] = STRING
    else if ('vector' in field) {
      compiled.kinds[id] = VECTOR
      compiled.sizes[id] = field.vector
    } else if ('table' in field) {
      compiled.kinds[id] = TABLE
      compiled.children[id] = field.table()
    } else {
      compiled.kinds[id] = TABLES
      compiled.children[id] = field.tables()
    }
  })
  return (schema.compiled = compiled)
}

const u8: Field = { scalar: 1 }
const u16: Field = { scalar: 2 }
const i32: Field = { scalar: 4 }
const u64: Field = { scalar: 8 }
const str: Field = { string: true }

const COLUMN: Schema = {
  name: 'Column',
  fields: [str, u8, str, str, i32, i32, i32, u8, u8, u8, str],
}
const CRS: Schema = { name: 'Crs', fields: [str, i32, str, str, str, str] }
const GEOMETRY: Schema = {
  name: 'Geometry',
  fields: [
    { vector: 4 },
    { vector: 8 },
    { vector: 8 },
    { vector: 8 },
    { vector: 8 },
    { vector: 8 },
    u8,
    { tables: () => GEOMETRY },
  ],
}
export const HEADER: Schema = {
  name: 'Header',
  fields: [
    str,
    { vector: 8 },
    u8,
    u8,
    u8,
    u8,
    u8,
    { tables: () => COLUMN },
    u64,
    u16,
    { table: () => CRS },
    str,
    str,
    str,
  ],
}
export const FEATURE: Schema = {
  name: 'Feature',
  fields: [{ table: () => GEOMETRY }, { vector: 1 }, { tables: () => COLUMN }],
}

export class FlatBufferError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FlatBufferError'
  }
}

/** Nesting of tables (geometry parts inside parts) a file may use. */
const MAX_DEPTH = 64

const NO_BYTES = new Uint8Array(0)
const NO_VIEW = new DataView(NO_BYTES.buffer)

/**
 * One pass over one buffer; methods rather than closures, and one instance reused, as it runs once per
 * feature (a vector's start and length come back in `data` and `count`, not in an array).
 */
class Checker {
  private tables = 0
  private maxTables = 0
  private bytes: Uint8Array = NO_BYTES
  private view: DataView = NO_VIEW
  private base = 0
  private end = 0
  private what = ''
  private index: number | undefined
  /** The last vector's start and item count (`vector`). */
  data = 0
  count = 0

  reset(
    bytes: Uint8Array,
    view: DataView,
    base: number,
    end: number,
    what: string,
    index: number | undefined,
  ): void {
    this.bytes = bytes
    this.view = view
    this.base = base
    this.end = end
    this.what = what
    this.index = index
    this.tables = 0
    this.maxTables = Math.ceil((end - base) / 4) + 8
  }

  /** Let go of the buffer checked last (the checker outlives it). */
  release(): void {
    this.bytes = NO_BYTES
    this.view = NO_VIEW
  }

  fail(message: string): never {
    throw new FlatBufferError(`${nameOf(this.what, this.index)}: ${message}`)
  }

  inside(pos: number, size: number): boolean {
    return pos >= this.base && size >= 0 && pos + size <= this.end
  }

  /** The target of the unsigned forward offset stored at `pos`. */
  forward(pos: number, where: string): number {
    const offset = this.view.getUint32(pos, true)
    if (offset === 0 || offset > 0x7fffffff || !this.inside(pos + offset, 4))
      this.fail(`${where} points outside the data`)
    return pos + offset
  }

  /** Start (`data`) and length (`count`) of the vector whose offset is stored at `pos`. */
  vector(pos: number, element: number, where: string): void {
    const at = this.forward(pos, where)
    const count = this.view.getUint32(at, true)
    const data = at + 4
    if (count > 0x7fffffff || !this.inside(data, count * element))
      this.fail(`${where} declares ${count} items beyond the data`)
    if (element > 1 && (this.bytes.byteOffset + data) % element !== 0) this.fail(`${where} is misaligned`)
    this.data = data
    this.count = count
  }

  table(pos: number, schema: Schema, depth: number, where: string): void {
    if (++this.tables > this.maxTables) this.fail('more tables than its size allows (shared or cyclic parts)')
    if (depth > MAX_DEPTH) this.fail(`${where} nests deeper than ${MAX_DEPTH} levels`)
    if (!this.inside(pos, 4)) this.fail(`${where} lies outside the data`)
    const view = this.view
    const vtable = pos - view.getInt32(pos, true)
    if (!this.inside(vtable, 4) || vtable % 2 !== 0)
      this.fail(`${where} has its field table outside the data`)
    const vtableSize = view.getInt16(vtable, true)
    const tableSize = view.getInt16(vtable + 2, true)
    if (vtableSize < 4 || vtableSize % 2 !== 0 || !this.inside(vtable, vtableSize))
      this.fail(`${where} has a field table of impossible size ${vtableSize}`)
    if (tableSize < 4 || !this.inside(pos, tableSize))
      this.fail(`${where} declares an impossible size ${tableSize}`)
    const { kinds, sizes, children } = schema.compiled ?? compile(schema)
    const slots = Math.min((vtableSize - 4) / 2, kinds.length)
    for (let id = 0; id < slots; id++) {
      const offset = view.getInt16(vtable + 4 + id * 2, true)
      if (offset === 0) continue
      const kind = kinds[id]!
      const size = kind === SCALAR ? sizes[id]! : 4
      if (offset < 4 || offset + size > tableSize) this.fail(`${where} field ${id} lies outside its table`)
      const at = pos + offset
      switch (kind) {
        case STRING:
          this.vector(at, 1, where)
          if (!this.inside(this.data, this.count + 1))
            this.fail(`${where} field ${id} is a string running past the data`)
          break
        case VECTOR:
          this.vector(at, sizes[id]!, where)
          break
        case TABLE:
          this.table(this.forward(at, where), children[id]!, depth + 1, where)
          break
        case TABLES: {
          this.vector(at, 4, where)
          const data = this.data
          const count = this.count
          const child = children[id]!
          for (let i = 0; i < count; i++)
            this.table(this.forward(data + i * 4, where), child, depth + 1, where)
          break
        }
      }
    }
  }
}

const nameOf = (what: string, index: number | undefined): string =>
  index === undefined ? what : `${what} ${index}`

const checker = new Checker()

/**
 * Check the size-prefixed FlatBuffer at `start` (its 4-byte length, then the root offset) against the
 * schema, within `[start, start + 4 + length)`; returns that end. Throws FlatBufferError naming what is
 * out of place (`what`, followed by `index` when given: "feature 12").
 */
export function checkSizePrefixed(
  bytes: Uint8Array,
  view: DataView,
  start: number,
  schema: Schema,
  what: string,
  index?: number,
): number {
  if (start + 8 > bytes.length) throw new FlatBufferError(`${nameOf(what, index)} is cut short`)
  const length = view.getUint32(start, true)
  const end = start + 4 + length
  if (length < 4 || end > bytes.length) {
    throw new FlatBufferError(
      `${nameOf(what, index)} declares ${length} bytes but only ${bytes.length - start - 4} remain (truncated or corrupt)`,
    )
  }
  checker.reset(bytes, view, start + 4, end, what, index)
  try {
    checker.table(
      checker.forward(start + 4, 'the root offset'),
      schema,
      0,
      (schema.compiled ?? compile(schema)).where,
    )
  } finally {
    checker.release()
  }
  return end
}
