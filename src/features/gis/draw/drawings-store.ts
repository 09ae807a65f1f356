import { bbox } from '@turf/turf'
import { rewindGeometry } from '../../../../shared/geojson'
import type { Feature, FeatureCollection, Geometry, Polygon, Position } from 'geojson'
import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { GeoError } from '@contract/index'
import { geo } from '../../../bridge'
import { CIRCLE_VERTICES, circleOf, circlePolygon } from '../../../geo/circle'
import { formatLength, formatMeasure } from '../../../geo/measure'
import { shapeProblems } from '../../../geo/shape-problems'
import type { LonLatBox } from '../../../geo/extent'
import { parseShapeFile, ShapeImportError } from '../../../geo/shape-import'

/** How a shape was made; decides its name ("Polygon 1") and how edits keep its properties. */
export type ShapeKind = 'polygon' | 'rectangle' | 'circle' | 'freehand' | 'point' | 'line' | 'imported'
export type DrawTool = Exclude<ShapeKind, 'imported'>
export type DrawMode = 'none' | 'select' | DrawTool

export interface ShapeProperties {
  name: string
  shape: ShapeKind
  /** Circles only: centre (lon, lat), radius and vertex count, kept for labels and edits. */
  center?: Position
  radiusMetres?: number
  vertices?: number
  [member: string]: unknown
}

/** A drawn shape: a GeoJSON Feature in WGS84 longitude/latitude (RFC 7946) with a string id. */
export interface DrawnShape extends Feature<Geometry, ShapeProperties> {
  id: string
}

export const KIND_LABEL: Record<ShapeKind, string> = {
  polygon: 'Polygon',
  rectangle: 'Rectangle',
  circle: 'Circle',
  freehand: 'Freehand',
  point: 'Point',
  line: 'Line',
  imported: 'Imported',
}

export const AUTOSAVE_DELAY_MS = 400
const MAX_UNDO = 200

let idCounter = 0
function newId(): string {
  idCounter += 1
  return `shape-${Date.now().toString(36)}-${idCounter.toString(36)}-${Math.random().toString(36).slice(2, 8)}`
}

/** Polygons wound as RFC 7946 asks (exterior counter-clockwise, holes clockwise). */
function normalise(geometry: Geometry): Geometry {
  if (geometry.type === 'Polygon' || geometry.type === 'MultiPolygon') return rewindGeometry(geometry)
  return geometry
}

function nextName(shapes: readonly DrawnShape[], label: string): string {
  const pattern = new RegExp(`^${label} (\\d+)$`)
  const highest = shapes.reduce((max, s) => {
    const match = pattern.exec(s.properties.name)
    return match ? Math.max(max, Number(match[1])) : max
  }, 0)
  return `${label} ${highest + 1}`
}

/**
 * The drawn shapes as GeoJSON (WGS84), their selection and undo/redo history, and their autosave.
 * OpenLayers objects live in DrawingLayer only. Every change is one undo step and is saved
 * (debounced) through drawings.save; a failed save keeps everything in memory and retries on the next change.
 */
export const useDrawingsStore = defineStore('drawings', () => {
  const shapes = shallowRef<DrawnShape[]>([])
  const selectedIds = ref<string[]>([])
  const mode = ref<DrawMode>('none')
  const undoStack = shallowRef<DrawnShape[][]>([])
  const redoStack = shallowRef<DrawnShape[][]>([])
  const loaded = ref(false)
  const loadError = ref<GeoError | null>(null)
  const saveError = ref<GeoError | null>(null)
  const savedAt = ref<string | null>(null)
  const importError = ref<string | null>(null)

  const collection = computed<FeatureCollection<Geometry, ShapeProperties>>(() => ({
    type: 'FeatureCollection',
    features: shapes.value,
  }))
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
  const canUndo = computed(() => undoStack.value.length > 0)
  const canRedo = computed(() => redoStack.value.length > 0)

  /** Checked once per geometry object: a change replaces the geometry, an unchanged shape keeps its answer. */
  const checked = new WeakMap<Geometry, { name: string; list: string[] }>()
  function problemsOf(shape: DrawnShape): string[] {
    const cached = shape.geometry ? checked.get(shape.geometry) : undefined
    if (cached && cached.name === shape.properties.name) return cached.list
    const list = shapeProblems(shape.properties.name, shape.geometry)
    if (shape.geometry) checked.set(shape.geometry, { name: shape.properties.name, list })
    return list
  }

  function labelOf(shape: DrawnShape): string {
    const parts = [shape.properties.name]
    const { radiusMetres } = shape.properties
    if (shape.properties.shape === 'circle' && typeof radiusMetres === 'number') {
      parts.push(`r ${formatLength(radiusMetres)}`)
    }
    const measure = shape.geometry ? formatMeasure(shape.geometry) : null
    if (measure) parts.push(measure)
    return parts.join(' · ')
  }

  function selectedCollection(): FeatureCollection<Geometry, ShapeProperties> {
    const chosen = new Set(selectedIds.value)
    return { type: 'FeatureCollection', features: shapes.value.filter((s) => chosen.has(s.id)) }
  }

  /** The bounding box (lon/lat) of some shapes, or null when none of them exists. */
  function boxOf(ids: readonly string[]): LonLatBox | null {
    const wanted = new Set(ids)
    const features = shapes.value.filter((s) => wanted.has(s.id))
    if (features.length === 0) return null
    const [minLon, minLat, maxLon, maxLat] = bbox({ type: 'FeatureCollection', features })
    return [minLon, minLat, maxLon, maxLat]
  }

  function shape(id: string): DrawnShape | undefined {
    return shapes.value.find((s) => s.id === id)
  }

  // ---- history -------------------------------------------------------------------------------------
  function commit(next: DrawnShape[]): void {
    undoStack.value = [...undoStack.value.slice(-(MAX_UNDO - 1)), shapes.value]
    redoStack.value = []
    replace(next)
  }

  function replace(next: DrawnShape[]): void {
    shapes.value = next
    const present = new Set(next.map((s) => s.id))
    if (selectedIds.value.some((id) => !present.has(id))) {
      selectedIds.value = selectedIds.value.filter((id) => present.has(id))
    }
    scheduleSave()
  }

  function undo(): boolean {
    const previous = undoStack.value[undoStack.value.length - 1]
    if (!previous) return false
    undoStack.value = undoStack.value.slice(0, -1)
    redoStack.value = [...redoStack.value, shapes.value]
    replace(previous)
    return true
  }

  function redo(): boolean {
    const next = redoStack.value[redoStack.value.length - 1]
    if (!next) return false
    redoStack.value = redoStack.value.slice(0, -1)
    undoStack.value = [...undoStack.value, shapes.value]
    replace(next)
    return true
  }

  // ---- changes -------------------------------------------------------------------------------------
  function makeShape(
    kind: ShapeKind,
    geometry: Geometry,
    name: string,
    extra: Partial<ShapeProperties> = {},
  ) {
    return {
      type: 'Feature',
      id: newId(),
      properties: { ...extra, name, shape: kind },
      geometry: normalise(geometry),
    } satisfies DrawnShape
  }

  /** Add a drawn shape; returns its id. */
  function add(kind: DrawTool, geometry: Geometry): string {
    const extra: Partial<ShapeProperties> = {}
    if (kind === 'circle' && geometry.type === 'Polygon') {
      const { center, radiusMetres } = circleOf(geometry)
      Object.assign(extra, { center, radiusMetres, vertices: (geometry.coordinates[0]?.length ?? 1) - 1 })
    }
    const created = makeShape(kind, geometry, nextName(shapes.value, KIND_LABEL[kind]), extra)
    commit([...shapes.value, created])
    return created.id
  }

  /** Add a circle of `vertices` vertices around a centre (lon, lat); returns its id. */
  function addCircle(center: Position, radiusMetres: number, vertices = CIRCLE_VERTICES): string {
    const created = makeShape(
      'circle',
      circlePolygon(center, radiusMetres, vertices),
      nextName(shapes.value, 'Circle'),
      {
        center,
        radiusMetres,
        vertices,
      },
    )
    commit([...shapes.value, created])
    return created.id
  }

  /** Replace the geometries of some shapes (a move or a vertex edit) as one undo step. */
  function updateGeometries(updates: ReadonlyArray<{ id: string; geometry: Geometry }>): void {
    const byId = new Map(updates.map((u) => [u.id, u.geometry]))
    let changed = false
    const next = shapes.value.map((s) => {
      const geometry = byId.get(s.id)
      if (!geometry || JSON.stringify(geometry) === JSON.stringify(s.geometry)) return s
      changed = true
      const properties = { ...s.properties }
      if (s.properties.shape === 'circle' && geometry.type === 'Polygon') {
        const { center, radiusMetres } = circleOf(geometry as Polygon)
        Object.assign(properties, {
          center,
          radiusMetres,
          vertices: (geometry.coordinates[0]?.length ?? 1) - 1,
        })
      }
      return { ...s, properties, geometry: normalise(geometry) }
    })
    if (changed) commit(next)
  }

  function remove(ids: readonly string[]): void {
    const gone = new Set(ids)
    if (!shapes.value.some((s) => gone.has(s.id))) return
    commit(shapes.value.filter((s) => !gone.has(s.id)))
  }

  function deleteSelected(): void {
    remove(selectedIds.value)
  }

  function clear(): void {
    if (shapes.value.length > 0) commit([])
  }

  /** Add features read from a file as one undo step; a feature's own `name` is kept when it has one. */
  function importFeatures(features: readonly Feature[]): string[] {
    const next = [...shapes.value]
    const ids: string[] = []
    for (const f of features) {
      if (!f.geometry) continue
      const own = f.properties?.['name']
      const name = typeof own === 'string' && own.trim() ? own.trim() : nextName(next, KIND_LABEL.imported)
      const created = makeShape('imported', f.geometry, name, { ...(f.properties ?? {}) })
      next.push(created)
      ids.push(created.id)
    }
    if (ids.length > 0) commit(next)
    return ids
  }

  /** "Import shapes": read a GeoJSON or KML file; a bad file leaves the shapes as they were. */
  async function importFile(file: File): Promise<string[]> {
    importError.value = null
    try {
      const features = parseShapeFile(file.name, await file.text())
      const ids = importFeatures(features)
      selectedIds.value = ids
      return ids
    } catch (error) {
      importError.value =
        error instanceof ShapeImportError ? error.message : `${file.name}: ${(error as Error).message}`
      return []
    }
  }

  // ---- selection and mode --------------------------------------------------------------------------
  /** Select one shape, or with `additive` (Shift+click) add it to / remove it from the selection. */
  function select(id: string, additive = false): void {
    if (!additive) selectedIds.value = [id]
    else if (selectedIds.value.includes(id)) selectedIds.value = selectedIds.value.filter((s) => s !== id)
    else selectedIds.value = [...selectedIds.value, id]
  }

  function setSelection(ids: readonly string[]): void {
    const present = new Set(shapes.value.map((s) => s.id))
    const next = ids.filter((id) => present.has(id))
    if (next.join('\n') !== selectedIds.value.join('\n')) selectedIds.value = next
  }

  function setMode(next: DrawMode): void {
    mode.value = mode.value === next && next !== 'none' ? 'none' : next
  }

  // ---- persistence ---------------------------------------------------------------------------------
  let saveTimer: ReturnType<typeof setTimeout> | null = null
  let dirty = false
  let saving: Promise<void> = Promise.resolve()

  function scheduleSave(): void {
    dirty = true
    if (saveTimer) clearTimeout(saveTimer)
    saveTimer = setTimeout(() => void flush(), AUTOSAVE_DELAY_MS)
  }

  /** Save now if anything changed since the last good save (pagehide, or the debounce firing). */
  function flush(): Promise<void> {
    if (saveTimer) clearTimeout(saveTimer)
    saveTimer = null
    if (!dirty) return saving
    dirty = false
    const snapshot: FeatureCollection = { type: 'FeatureCollection', features: shapes.value }
    saving = saving.then(async () => {
      const result = await geo['drawings.save']({ collection: snapshot as never })
      if (result.ok) {
        saveError.value = null
        savedAt.value = result.value.savedAt
      } else {
        saveError.value = result.error
        // Keep everything in memory; the next change (or pagehide) tries again.
        dirty = true
      }
    })
    return saving
  }

  /** Stored features as shapes: kinds and names checked, ids kept unless taken. */
  function fromStored(
    features: ReadonlyArray<{
      id?: string | number
      properties: Record<string, unknown> | null
      geometry: unknown
    }>,
    taken: ReadonlySet<string>,
  ): DrawnShape[] {
    const out: DrawnShape[] = []
    for (const f of features) {
      if (!f.geometry) continue
      const props = (f.properties ?? {}) as Partial<ShapeProperties>
      const kind = (props.shape && props.shape in KIND_LABEL ? props.shape : 'imported') as ShapeKind
      const id = typeof f.id === 'string' && !taken.has(f.id) ? f.id : newId()
      const name = typeof props.name === 'string' && props.name ? props.name : nextName(out, KIND_LABEL[kind])
      out.push({
        type: 'Feature',
        id,
        properties: { ...props, name, shape: kind },
        geometry: f.geometry as Geometry,
      })
    }
    return out
  }

  /** Replace every shape with a project's (one undo step, saved like any change). */
  function replaceAll(features: Parameters<typeof fromStored>[0]): void {
    commit(fromStored(features, new Set()))
  }

  /** Load the saved drawings once (later calls wait for the same load); shapes drawn before the answer are kept after them. */
  let loading: Promise<void> | null = null
  function load(): Promise<void> {
    loading ??= loadOnce()
    return loading
  }

  async function loadOnce(): Promise<void> {
    const result = await geo['drawings.load']({})
    loaded.value = true
    if (!result.ok) {
      loadError.value = result.error
      return
    }
    loadError.value = null
    const fromDisk = fromStored(result.value.collection.features, new Set(shapes.value.map((s) => s.id)))
    const local = shapes.value
    shapes.value = [...fromDisk, ...local]
    if (local.length > 0) scheduleSave()
  }

  return {
    shapes,
    selectedIds,
    mode,
    loaded,
    loadError,
    saveError,
    savedAt,
    importError,
    collection,
    problems,
    problemMessages,
    labels,
    canUndo,
    canRedo,
    selectedCollection,
    shape,
    boxOf,
    undo,
    redo,
    add,
    addCircle,
    updateGeometries,
    remove,
    deleteSelected,
    clear,
    importFeatures,
    importFile,
    replaceAll,
    select,
    setSelection,
    setMode,
    flush,
    load,
  }
})
