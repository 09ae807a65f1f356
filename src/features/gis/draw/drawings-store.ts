import { bbox } from '@turf/turf'
import type { Feature, FeatureCollection, Geometry, Polygon, Position } from 'geojson'
import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import { CIRCLE_VERTICES, circleOf, circlePolygon } from '../../../geo/circle'
import type { LonLatBox } from '../../../geo/extent'
import { parseShapeFile, ShapeImportError } from '../../../geo/shape-import'
import {
  fromStored,
  KIND_LABEL,
  makeShape,
  nextName,
  normalise,
  type DrawMode,
  type DrawnShape,
  type DrawTool,
  type ShapeProperties,
} from './shapes'
import { useDrawingsSync } from './use-drawings-sync'
import { useShapeChecks } from './use-shape-checks'
import { useUndoHistory } from './use-undo-history'

export {
  KIND_LABEL,
  type DrawMode,
  type DrawnShape,
  type DrawTool,
  type ShapeKind,
  type ShapeProperties,
} from './shapes'

export { AUTOSAVE_DELAY_MS } from './use-drawings-sync'

/**
 * The drawn shapes as GeoJSON (WGS84), their selection and undo/redo history, and their autosave.
 * OpenLayers objects live in DrawingLayer only. Every change is one undo step and is saved
 * (debounced) through drawings.save; a failed save keeps everything in memory and retries on the next change.
 */
export const useDrawingsStore = defineStore('drawings', () => {
  const shapes = shallowRef<DrawnShape[]>([])
  const selectedIds = ref<string[]>([])
  const mode = ref<DrawMode>('none')
  const sync = useDrawingsSync(shapes)
  const { canUndo, canRedo, commit, undo, redo } = useUndoHistory(shapes, replace)
  const importError = ref<string | null>(null)

  const collection = computed<FeatureCollection<Geometry, ShapeProperties>>(() => ({
    type: 'FeatureCollection',
    features: shapes.value,
  }))
  const { problems, problemMessages, labels } = useShapeChecks(shapes)

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

  function replace(next: DrawnShape[]): void {
    shapes.value = next
    const present = new Set(next.map((s) => s.id))
    if (selectedIds.value.some((id) => !present.has(id))) {
      selectedIds.value = selectedIds.value.filter((id) => present.has(id))
    }
    sync.scheduleSave()
  }

  // ---- changes -------------------------------------------------------------------------------------

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

  /** Replace every shape with a project's (one undo step, saved like any change). */
  function replaceAll(features: Parameters<typeof fromStored>[0]): void {
    commit(fromStored(features, new Set()))
  }

  return {
    shapes,
    selectedIds,
    mode,
    loaded: sync.loaded,
    loadError: sync.loadError,
    saveError: sync.saveError,
    savedAt: sync.savedAt,
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
    flush: sync.flush,
    load: sync.load,
  }
})
