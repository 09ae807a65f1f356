import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import path from 'node:path'
import type { Geometry } from 'geojson'
import Flatbush from 'flatbush'
import type { GeometryType } from 'flatgeobuf/lib/mjs/flat-geobuf/geometry-type.js'
import { encodeDatasetFeature, encodePointFeature, flatGeobufStart, widenGeometryType } from './fgb-write'
import {
  geometryBBox,
  isGeometryColumn,
  type BBox,
  type DatasetFeature,
  type FieldInfo,
  type FieldType,
} from './features'

/**
 * A dataset written as its features stream past, never holding them: a first pass over the features
 * (`DatasetTally`) learns what the file's header and the manifest need (count, field types, geometry type,
 * extent) and the boxes of the R-tree; a second pass writes each feature to `data.fgb`
 * (`FlatGeobufFileWriter`). The result is byte for byte what `writeFlatGeobuf` and `buildIndex` make of the
 * same features held in a list.
 */

function typeOf(value: unknown): FieldType | undefined {
  if (value === null || value === undefined) return undefined
  if (typeof value === 'number' || typeof value === 'bigint') return 'number'
  if (typeof value === 'boolean') return 'boolean'
  if (typeof value === 'string') return 'string'
  return 'json'
}

const POINT: Geometry = { type: 'Point', coordinates: [0, 0] }

/** Where a feature without geometry sits in the index (as `buildIndex` puts it). */
const NOWHERE = 1e6

/** What a pass over the features learns: `inferFields`, `datasetGeometryType`, the extent and the boxes. */
export class DatasetTally {
  count = 0
  extent: BBox | null = null
  /** The FlatGeobuf header's geometry type (none counted as an empty GeometryCollection). */
  fileType: GeometryType | undefined
  private layerType: string | undefined
  private layerMixed = false
  private readonly types = new Map<string, FieldType | undefined>()
  private readonly mixed = new Set<string>()
  private boxes = new Float64Array(4 * 1024)

  add(f: DatasetFeature): void {
    for (const name in f.properties) {
      if (Object.hasOwn(f.properties, name)) this.value(name, f.properties[name])
    }
    const g = f.geometry
    this.geometry(g)
    // A point's box is its position (what `geometryBBox` gives, without walking it).
    const b =
      g?.type === 'Point' && g.coordinates.length === 2
        ? ([g.coordinates[0]!, g.coordinates[1]!, g.coordinates[0]!, g.coordinates[1]!] as BBox)
        : geometryBBox(g)
    if (b) this.box(b[0], b[1], b[2], b[3])
    else this.box(NOWHERE, NOWHERE, NOWHERE, NOWHERE, false)
  }

  /**
   * `add` for a 2D point feature whose properties are `names[i]: values[i]` (own keys in that order), without
   * making the feature.
   */
  addPoint(x: number, y: number, names: readonly string[], values: readonly unknown[]): void {
    for (let i = 0; i < names.length; i++) this.value(names[i]!, values[i])
    this.geometry(POINT)
    this.box(x, y, x, y)
  }

  private value(name: string, value: unknown): void {
    if (isGeometryColumn(name)) return
    const t = typeOf(value)
    if (!this.types.has(name)) this.types.set(name, t)
    else if (t !== undefined) {
      const known = this.types.get(name)
      if (known === undefined) this.types.set(name, t)
      else if (known !== t) this.mixed.add(name)
    }
  }

  private geometry(g: Geometry | null): void {
    this.fileType = widenGeometryType(this.fileType, g)
    if (g && !this.layerMixed) {
      const t = g.type.toUpperCase()
      if (this.layerType === undefined) this.layerType = t
      else if (this.layerType !== t) {
        const base = (s: string) => s.replace(/^MULTI/, '')
        if (base(this.layerType) === base(t)) this.layerType = `MULTI${base(t)}`
        else this.layerMixed = true
      }
    }
  }

  private box(minX: number, minY: number, maxX: number, maxY: number, counts = true): void {
    const e = this.extent
    if (!counts) {
      // No geometry: outside the extent, far away in the index.
    } else if (e) {
      if (minX < e[0]) e[0] = minX
      if (minY < e[1]) e[1] = minY
      if (maxX > e[2]) e[2] = maxX
      if (maxY > e[3]) e[3] = maxY
    } else this.extent = [minX, minY, maxX, maxY]
    if (this.boxes.length < 4 * (this.count + 1)) {
      const grown = new Float64Array(this.boxes.length * 2)
      grown.set(this.boxes)
      this.boxes = grown
    }
    const at = 4 * this.count
    const boxes = this.boxes
    boxes[at] = minX
    boxes[at + 1] = minY
    boxes[at + 2] = maxX
    boxes[at + 3] = maxY
    this.count++
  }

  /** The fields as `inferFields` names and types them: first-seen order, mixed → string. */
  fields(): FieldInfo[] {
    return [...this.types].map(([name, t]) => ({
      name,
      type: this.mixed.has(name) ? 'string' : (t ?? 'string'),
    }))
  }

  /** The layer's geometry type as `datasetGeometryType` names it. */
  geometryType(): string {
    return this.layerMixed ? 'GEOMETRY' : (this.layerType ?? 'GEOMETRY')
  }

  /** The packed R-tree of the boxes, as `buildIndex` builds it. */
  index(): Flatbush {
    const index = new Flatbush(Math.max(1, this.count))
    const b = this.boxes
    for (let i = 0; i < this.count; i++) index.add(b[4 * i]!, b[4 * i + 1]!, b[4 * i + 2]!, b[4 * i + 3]!)
    if (this.count === 0) index.add(NOWHERE, NOWHERE, NOWHERE, NOWHERE)
    index.finish()
    return index
  }
}

/** How many bytes of features are gathered before one write. */
const FLUSH_BYTES = 1 << 20

/**
 * `data.fgb` written a feature at a time: the header of `count` features first, then each feature as
 * `writeFlatGeobuf` encodes it, through a temporary file renamed into place by `close` (which checks that
 * `count` features came, and otherwise leaves no file).
 */
export class FlatGeobufFileWriter {
  private buffer = Buffer.allocUnsafe(FLUSH_BYTES * 2)
  private length = 0
  private written = 0

  private constructor(
    private readonly handle: fs.FileHandle,
    private readonly temp: string,
    private readonly target: string,
    private readonly fields: readonly FieldInfo[],
    private readonly count: number,
  ) {}

  static async open(
    target: string,
    type: GeometryType | undefined,
    fields: readonly FieldInfo[],
    count: number,
  ): Promise<FlatGeobufFileWriter> {
    const temp = path.join(
      path.dirname(target),
      `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`,
    )
    const writer = new FlatGeobufFileWriter(await fs.open(temp, 'wx', 0o600), temp, target, fields, count)
    writer.append(flatGeobufStart(type, fields, count))
    return writer
  }

  private append(part: Uint8Array): void {
    if (this.length + part.length > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + part.length))
      this.buffer.copy(grown, 0, 0, this.length)
      this.buffer = grown
    }
    this.buffer.set(part, this.length)
    this.length += part.length
  }

  /** Whether the buffered bytes should be written before the next feature (for a synchronous producer). */
  get full(): boolean {
    return this.length >= FLUSH_BYTES
  }

  /** Add the next feature without writing (call `flush` when `full`). */
  addSync(f: DatasetFeature): void {
    this.append(encodeDatasetFeature(f, this.fields))
    this.written++
  }

  /** Add a 2D point feature whose values fit the fields, by position (see `encodePointFeature`). */
  addPointSync(x: number, y: number, values: readonly unknown[]): void {
    this.append(encodePointFeature(x, y, values, this.fields))
    this.written++
  }

  async flush(): Promise<void> {
    let at = 0
    while (at < this.length) {
      const { bytesWritten } = await this.handle.write(this.buffer, at, this.length - at)
      at += bytesWritten
    }
    this.length = 0
  }

  /** Write what is left, check the count, and put the file in place. */
  async close(): Promise<void> {
    try {
      if (this.written !== this.count) {
        throw new Error(
          `the data file was to hold ${this.count} features but ${this.written} were written (the source changed while it was read?)`,
        )
      }
      await this.flush()
      await this.handle.sync()
      await this.handle.close()
      await fs.rename(this.temp, this.target)
    } catch (error) {
      await this.abort()
      throw error
    }
  }

  /** Give up: close and remove the temporary file. */
  async abort(): Promise<void> {
    await this.handle.close().catch(() => {})
    await fs.rm(this.temp, { force: true })
  }
}
