import type { Geometry } from 'geojson'
import { computed, type ShallowRef } from 'vue'
import { shapeProblems } from '../../../geo/shape-problems'
import { labelOf, type DrawnShape } from './shapes'

/** What the panel shows of each shape: its problems (what stops it from being sent) and its label. */
export function useShapeChecks(shapes: ShallowRef<DrawnShape[]>) {
  /** Checked once per geometry object: a change replaces the geometry, an unchanged shape keeps its answer. */
  const checked = new WeakMap<Geometry, { name: string; list: string[] }>()
  function problemsOf(shape: DrawnShape): string[] {
    const cached = shape.geometry ? checked.get(shape.geometry) : undefined
    if (cached && cached.name === shape.properties.name) return cached.list
    const list = shapeProblems(shape.properties.name, shape.geometry)
    if (shape.geometry) checked.set(shape.geometry, { name: shape.properties.name, list })
    return list
  }
  /** Per shape id: what stops it from being sent (self-intersections, RFC 7946 issues); absent when fine. */
  const problems = computed<Record<string, string[]>>(() => {
    const found: Record<string, string[]> = {}
    for (const shape of shapes.value) {
      const list = problemsOf(shape)
      if (list.length > 0) found[shape.id] = list
    }
    return found
  })
  const problemMessages = computed(() => Object.values(problems.value).flat())
  /** "Polygon 1 · 1,234.5 km²", "Circle 2 · r 5.00 km · 78.54 km²", "Point 3". */
  const labels = computed<Record<string, string>>(() => {
    const out: Record<string, string> = {}
    for (const shape of shapes.value) out[shape.id] = labelOf(shape)
    return out
  })

  return { problems, problemMessages, labels }
}
