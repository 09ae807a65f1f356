import { isGeometryColumn, type DatasetFeature } from '../workspace/features'

/**
 * A property named as the geometry column is named (`geom`, `geometry`, `the_geom`, `wkb_geometry`,
 * `shape`, any letter case) would be hidden behind it — a join's `selectionParamSource=shape` selects the
 * geometry — so it is kept as `<name>_2` (`_3`, … when that is taken), in every feature, never dropped.
 * Returns the names given, old → new.
 */
export function keepGeometryNamedProperties(features: DatasetFeature[]): Map<string, string> {
  const renamed = new Map<string, string>()
  const taken = new Set<string>()
  for (const f of features) {
    for (const name in f.properties) {
      taken.add(name)
      if (isGeometryColumn(name)) renamed.set(name, name)
    }
  }
  if (renamed.size === 0) return renamed
  for (const name of renamed.keys()) {
    let n = 2
    while (taken.has(`${name}_${n}`)) n++
    const to = `${name}_${n}`
    taken.add(to)
    renamed.set(name, to)
  }
  for (const f of features) {
    let hit = false
    for (const name in f.properties) if (renamed.has(name)) hit = true
    if (!hit) continue
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
  return renamed
}
