import type { Point } from 'geojson'
import type { DatasetFeature, FieldInfo } from './features'
import { TextColumn } from './text-column'

/** A field's values by feature: in an array, or (text) as UTF-8 bytes decoded when read. */
export type PointColumn = readonly unknown[] | TextColumn

/**
 * A dataset of 2D points held column-wise, as the FlatGeobuf reader decodes it: the coordinates in typed
 * arrays and each field's values in an array of their own, in feature order (a text field's as its bytes, a
 * `TextColumn`, each value decoded when read). A feature object is made only
 * when asked for: `features()` makes all of them once (the same objects as the reader's feature list, key
 * order included), `geometry` and `property` read one feature without making it. A million points decode
 * this way without a million features, geometries, coordinate arrays and property objects to allocate and
 * keep.
 */
export class PointColumns {
  private made?: DatasetFeature[]
  private readonly at = new Map<string, number>()

  constructor(
    readonly xs: Float64Array,
    readonly ys: Float64Array,
    /** The file's fields, in order (their names distinct, none `__proto__`). */
    readonly fields: readonly FieldInfo[],
    /** Per field, its value of each feature (null where the feature has none). */
    readonly values: ReadonlyArray<PointColumn>,
  ) {
    fields.forEach((f, k) => this.at.set(f.name, k))
  }

  get count(): number {
    return this.xs.length
  }

  /** Feature `i`'s geometry, a new object each call. */
  geometry(i: number): Point {
    return { type: 'Point', coordinates: [this.xs[i]!, this.ys[i]!] }
  }

  /**
   * A field's values by feature, in an array (a text field's decoded for the call: read one with `reader`
   * or `property` instead, or its bytes with `textColumn`); undefined for a name that is not a field.
   */
  column(name: string): readonly unknown[] | undefined {
    const k = this.at.get(name)
    if (k === undefined) return undefined
    const column = this.values[k]!
    if (!(column instanceof TextColumn)) return column
    return Array.from({ length: column.length }, (_, i) => column.get(i))
  }

  /** A field's values as UTF-8 bytes, when it is a text field held so. */
  textColumn(name: string): TextColumn | undefined {
    const k = this.at.get(name)
    const column = k === undefined ? undefined : this.values[k]
    return column instanceof TextColumn ? column : undefined
  }

  /** A reader of what `property(i, name)` reads, by feature index. */
  reader(name: string): (i: number) => unknown {
    const k = this.at.get(name)
    if (k === undefined) return (i) => this.property(i, name)
    const column = this.values[k]!
    return column instanceof TextColumn ? (i) => column.get(i) : (i) => column[i]
  }

  /** What `features()[i].properties[name]` reads. */
  property(i: number, name: string): unknown {
    const k = this.at.get(name)
    if (k === undefined) return (NO_PROPERTIES as Record<string, unknown>)[name]
    const column = this.values[k]!
    return column instanceof TextColumn ? column.get(i) : column[i]
  }

  /** The features as objects, made on first call and kept. */
  features(): DatasetFeature[] {
    if (this.made) return this.made
    const n = this.count
    const fields = this.fields
    const template: Record<string, unknown> = {}
    for (const f of fields) template[f.name] = null
    const features = new Array<DatasetFeature>(n)
    const values = this.values
    for (let i = 0; i < n; i++) {
      const properties = { ...template }
      for (let k = 0; k < fields.length; k++) {
        const column = values[k]!
        properties[fields[k]!.name] = column instanceof TextColumn ? column.get(i) : column[i]
      }
      features[i] = { geometry: this.geometry(i), properties }
    }
    return (this.made = features)
  }

  /**
   * The dataset cache's estimate for these points as features (`estimateTableBytes` of `features()`, the
   * same number), without making them: a point with its objects and coordinates 216 B, each value a number
   * 16 B, text 24 B + 2 B a character, anything else (null included) 256 B. (Text held as bytes is counted as
   * the strings it would be: the cache's budget stays what it was.)
   */
  estimateBytes(): number {
    let bytes = this.count * (144 + 72)
    for (const column of this.values) {
      if (column instanceof TextColumn) {
        for (let i = 0; i < column.length; i++) {
          const length = column.textLength(i)
          bytes += length < 0 ? 256 : 24 + 2 * length
        }
        continue
      }
      for (let i = 0; i < column.length; i++) {
        const v = column[i]
        bytes += typeof v === 'number' ? 16 : typeof v === 'string' ? 24 + 2 * v.length : 256
      }
    }
    return bytes
  }
}

/** What a property a feature lacks reads as (`{}[name]`: undefined, or what objects inherit). */
const NO_PROPERTIES = {}
