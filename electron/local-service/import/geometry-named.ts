import { isGeometryColumn, type DatasetFeature } from '../workspace/features'

/**
 * A property named as the geometry column is named (`geom`, `geometry`, `the_geom`, `wkb_geometry`,
 * `shape`, any letter case) would be hidden behind it — a join's `selectionParamSource=shape` selects the
 * geometry — so it is kept as `<name>_2` (`_3`, … when that is taken), in every feature, never dropped.
 * Returns the names given, old → new.
 */
export function keepGeometryNamedProperties(features: DatasetFeature[]): Map<string, string> {
  const names = new Set<string>()
  for (const f of features) for (const name in f.properties) names.add(name)
  const renamed = geometryNamedRenames(names)
  if (renamed.size > 0) for (const f of features) renameProperties(f, renamed)
  return renamed
}

/**
 * The names `keepGeometryNamedProperties` gives when the features' property names are `names`, old → new
 * (empty when none is named as the geometry column).
 */
export function geometryNamedRenames(names: Iterable<string>): Map<string, string> {
  const renamed = new Map<string, string>()
  const taken = new Set<string>()
  for (const name of names) {
    taken.add(name)
    if (isGeometryColumn(name)) renamed.set(name, name)
  }
  for (const name of renamed.keys()) {
    let n = 2
    while (taken.has(`${name}_${n}`)) n++
    const to = `${name}_${n}`
    taken.add(to)
    renamed.set(name, to)
  }
  return renamed
}

/** One feature's properties renamed (`geometryNamedRenames`), in the same order. */
export function renameProperties(f: DatasetFeature, renamed: ReadonlyMap<string, string>): void {
  let hit = false
  for (const name in f.properties) if (renamed.has(name)) hit = true
  if (!hit) return
  // Rebuilt in the same order, so the renamed column stays where it was.
  const properties: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(f.properties)) {
    Object.defineProperty(properties, renamed.get(name) ?? name, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  f.properties = properties
}
