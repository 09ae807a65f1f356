import type { Point } from 'geojson'
import type { DatasetFeature, FieldInfo } from './features'

/**
 * A dataset of 2D points held column-wise, as the FlatGeobuf reader decodes it: the coordinates in typed
 * arrays and each field's values in an array of their own, in feature order. A feature object is made only
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
    readonly values: ReadonlyArray<readonly unknown[]>,
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

  /** A field's values by feature; undefined for a name that is not a field. */
  column(name: string): readonly unknown[] | undefined {
    const k = this.at.get(name)
    return k === undefined ? undefined : this.values[k]
  }

  /** What `features()[i].properties[name]` reads. */
  property(i: number, name: string): unknown {
    const k = this.at.get(name)
    return k === undefined ? (NO_PROPERTIES as Record<string, unknown>)[name] : this.values[k]![i]
  }

  /** The features as objects, made on first call and kept. */
  features(): DatasetFeature[] {
    if (this.made) return this.made
    const n = this.count
    const fields = this.fields
    const template: Record<string, unknown> = {}
    for (const f of fields) template[f.name] = null
    const features = new Array<DatasetFeature>(n)
    for (let i = 0; i < n; i++) {
      const properties = { ...template }
      for (let k = 0; k < fields.length; k++) properties[fields[k]!.name] = this.values[k]![i]
      features[i] = { geometry: this.geometry(i), properties }
    }
    return (this.made = features)
  }

  /**
   * The dataset cache's estimate for these points as features (`estimateTableBytes` of `features()`, the
   * same number), without making them: a point with its objects and coordinates 216 B, each value a number
   * 16 B, text 24 B + 2 B a character, anything else (null included) 256 B.
   */
  estimateBytes(): number {
    let bytes = this.count * (144 + 72)
    for (const column of this.values) {
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
