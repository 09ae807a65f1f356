import type { FeatureCollection } from 'geojson'
import { defineStore } from 'pinia'
import { computed, markRaw, ref, shallowRef } from 'vue'
import { geoError, importFileProblem, type Dataset, type GeoError } from '@contract/index'
import { geo, geoEvents, geoFiles } from '../../../bridge'
import { DATASET_COLOURS } from '../../../kit/palette'
import { geometryFamily, type GeometryFamily } from './dataset-style'

/** A local dataset shown on the map: its features (WGS84 GeoJSON, not reactive inside) and its legend entry. */
export interface ShownDataset {
  name: string
  colour: string
  family: GeometryFamily
  geometryType: string
  featureCount: number
  collection: FeatureCollection
  /**
   * Drawn from vector tiles the built-in service cuts in its database (`gis.tile`): `collection` is empty,
   * `fields` and `extent` come from the dataset list.
   */
  tiles?: { fields: { name: string; type: string }[]; extent: [number, number, number, number] | null }
}

export interface ImportProgress {
  fileName: string
  /** Handing the file to the host (the browser host receives a copy), then importing it. */
  phase: 'sending' | 'importing'
}

/**
 * The active profile's datasets (gis.layers), which local ones are shown on the map, and imports into the
 * local workspace. Refreshes on datasets.changed and when the active profile changes.
 */
export const useDatasetsStore = defineStore('datasets', () => {
  const datasets = ref<Dataset[]>([])
  const loading = ref(false)
  const listError = ref<GeoError | null>(null)
  const shown = shallowRef<ShownDataset[]>([])
  const pendingShow = ref<string[]>([])
  const showError = ref<GeoError | null>(null)
  const importing = ref<ImportProgress | null>(null)
  const importError = ref<GeoError | null>(null)
  const imported = ref<string | null>(null)
  let profile: string | null = null
  let refreshCount = 0

  const shownNames = computed(() => new Set(shown.value.map((s) => s.name)))

  async function refresh(): Promise<void> {
    const ticket = ++refreshCount
    loading.value = true
    const result = await geo['gis.layers']({})
    if (ticket !== refreshCount) return
    loading.value = false
    if (!result.ok) {
      listError.value = result.error
      return
    }
    listError.value = null
    datasets.value = result.value.datasets
    const local = new Set(datasets.value.filter((d) => d.local).map((d) => d.layername))
    if (shown.value.some((s) => !local.has(s.name)))
      shown.value = shown.value.filter((s) => local.has(s.name))
  }

  function isShown(name: string): boolean {
    return shownNames.value.has(name)
  }

  function nextColour(): string {
    const used = new Set(shown.value.map((s) => s.colour))
    return (
      DATASET_COLOURS.find((c) => !used.has(c)) ??
      DATASET_COLOURS[shown.value.length % DATASET_COLOURS.length]!
    )
  }

  async function show(name: string): Promise<void> {
    if (isShown(name) || pendingShow.value.includes(name)) return
    showError.value = null
    const listed = datasets.value.find((d) => d.layername === name)
    if (listed?.tiles) {
      // A database dataset: drawn tile by tile, never loaded whole.
      const geometryType = listed.geometrytype ?? 'GEOMETRY'
      shown.value = [
        ...shown.value,
        {
          name,
          colour: nextColour(),
          family: geometryFamily(geometryType),
          geometryType,
          featureCount: listed.featureCount ?? 0,
          collection: markRaw({ type: 'FeatureCollection', features: [] }),
          tiles: { fields: listed.fields ?? [], extent: listed.extent ?? null },
        },
      ]
      return
    }
    pendingShow.value = [...pendingShow.value, name]
    try {
      const result = await geo['datasets.features']({ name })
      if (!result.ok) {
        showError.value = result.error
        return
      }
      let collection: FeatureCollection
      try {
        collection = JSON.parse(result.value.geojson) as FeatureCollection
      } catch {
        showError.value = geoError('unclassified', `The features of ${name} are not valid GeoJSON`)
        return
      }
      const dataset = datasets.value.find((d) => d.layername === name)
      const geometryType = dataset?.geometrytype ?? collection.features[0]?.geometry?.type ?? 'GEOMETRY'
      shown.value = [
        ...shown.value,
        {
          name,
          colour: nextColour(),
          family: geometryFamily(geometryType),
          geometryType,
          featureCount: result.value.featureCount,
          collection: markRaw(collection),
        },
      ]
    } finally {
      pendingShow.value = pendingShow.value.filter((n) => n !== name)
    }
  }

  function hide(name: string): void {
    shown.value = shown.value.filter((s) => s.name !== name)
  }

  function toggle(name: string): Promise<void> {
    if (isShown(name)) {
      hide(name)
      return Promise.resolve()
    }
    return show(name)
  }

  /**
   * Import a file into the local workspace: offer it to the host (the desktop app takes the file the user
   * chose; the browser host receives a streamed copy), import it by the reference it answers, then refresh.
   */
  async function importFile(file: File): Promise<Dataset | null> {
    if (importing.value) {
      importError.value = geoError(
        'conflict',
        `Still importing ${importing.value.fileName}; wait for it to finish`,
      )
      return null
    }
    importError.value = null
    imported.value = null
    const problem = importFileProblem(file.name, file.size)
    if (problem) {
      importError.value = geoError('validation', problem, { field: 'file' })
      return null
    }
    const notImported = (error: GeoError): null => {
      importError.value = { ...error, message: `${file.name} was not imported: ${error.message}` }
      return null
    }
    importing.value = { fileName: file.name, phase: 'sending' }
    try {
      const offered = await geoFiles.offerForImport(file)
      if (!offered.ok) return notImported(offered.error)
      importing.value = { fileName: file.name, phase: 'importing' }
      const result = await geo['datasets.import']({ file: offered.value.file })
      if (!result.ok) return notImported(result.error)
      const count = result.value.featureCount
      imported.value = `Imported ${result.value.layername}${count === undefined ? '' : ` (${count.toLocaleString('en-US')} features)`}`
      await refresh()
      return result.value
    } finally {
      importing.value = null
    }
  }

  /** Refresh when the active profile is another one than the list was made for. */
  function profileIs(name: string): void {
    if (profile === name) return
    const first = profile === null
    profile = name
    if (!first) {
      shown.value = []
      void refresh()
    }
  }

  /** Follow datasets.changed and settings.changed (profile switch); returns the unsubscribe function. */
  function listen(): () => void {
    const offDatasets = geoEvents.on('datasets.changed', () => void refresh())
    const offSettings = geoEvents.on('settings.changed', (view) => profileIs(view.activeProfile))
    return () => {
      offDatasets()
      offSettings()
    }
  }

  return {
    datasets,
    loading,
    listError,
    shown,
    pendingShow,
    showError,
    importing,
    importError,
    imported,
    refresh,
    isShown,
    show,
    hide,
    toggle,
    importFile,
    profileIs,
    listen,
  }
})
