import { defineStore } from 'pinia'
import { ref } from 'vue'
import {
  geoError,
  PROJECT_FORMAT,
  PROJECT_VERSION,
  readProject,
  type GeoError,
  type Project,
  type ProjectEntry,
  type ProjectLayer,
} from '@contract/index'
import { geo } from '../../../bridge'
import { useLayersStore } from '../layers/layers-store'
import { useMapStore } from '../view/map-store'
import { saveExport } from '../../shell/save-file'
import type { Shell } from '../../shell/shell'

/** The current project's name and the map's title, kept between runs (UI state). */
export const PROJECT_STORAGE_KEY = 'geo-analyst.project'

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage
  } catch {
    return null
  }
}

function readCurrent(): { name: string | null; title: string } {
  try {
    const saved = JSON.parse(storage()?.getItem(PROJECT_STORAGE_KEY) ?? 'null') as Record<
      string,
      unknown
    > | null
    return {
      name: typeof saved?.['name'] === 'string' ? saved['name'] : null,
      title: typeof saved?.['title'] === 'string' ? saved['title'].slice(0, 200) : '',
    }
  } catch {
    return { name: null, title: '' }
  }
}

/**
 * Projects: the layer list with styles, each area's part (drawings) and the map view, saved by name in
 * the app's projects folder, opened again, exported and opened as files; the last one reopens on start
 * when no working state was kept. A newer or damaged file is refused by name and changes nothing.
 */
export const useProjectStore = defineStore('project', () => {
  const initial = readCurrent()
  const name = ref<string | null>(initial.name)
  /** The map's title: shown on exports and kept in the project. */
  const title = ref(initial.title)
  const projects = ref<ProjectEntry[]>([])
  const error = ref<GeoError | null>(null)
  const notice = ref('')
  const busy = ref(false)

  function remember(): void {
    try {
      storage()?.setItem(PROJECT_STORAGE_KEY, JSON.stringify({ name: name.value, title: title.value }))
    } catch {
      // The project's name is not kept; nothing else is affected.
    }
  }

  function setTitle(next: string): void {
    title.value = next.slice(0, 200)
    remember()
  }

  async function list(): Promise<void> {
    const result = await geo['project.list']({})
    if (result.ok) projects.value = result.value.projects
    else error.value = result.error
  }

  /** The project as a file keeps it, from what is on screen now. */
  async function build(shell: Shell): Promise<Project> {
    const mapStore = useMapStore()
    const areas: Record<string, unknown> = {}
    for (const area of shell.areas) {
      const part = await area.project?.save()
      if (part !== undefined && part !== null) areas[area.id] = part
    }
    return {
      format: PROJECT_FORMAT,
      version: PROJECT_VERSION,
      title: title.value,
      savedAt: new Date().toISOString(),
      view: {
        center: mapStore.center ? [mapStore.center[0], mapStore.center[1]] : [78.9, 22.5],
        zoom: mapStore.zoom ?? 4,
        rotation: 0,
      },
      layers: useLayersStore().snapshot(),
      areas,
    }
  }

  async function save(shell: Shell, as: string): Promise<boolean> {
    busy.value = true
    error.value = null
    notice.value = ''
    try {
      const result = await geo['project.save']({ name: as, project: await build(shell) })
      if (!result.ok) {
        error.value = result.error
        return false
      }
      name.value = result.value.name
      remember()
      notice.value = `Saved project ${result.value.name}.`
      await list()
      return true
    } finally {
      busy.value = false
    }
  }

  /** Ask each area to bring back its layers the list wants but that are not on the map. */
  async function openPending(shell: Shell, wanted: readonly ProjectLayer[]): Promise<void> {
    const layers = useLayersStore()
    const byArea = new Map<string, ProjectLayer[]>()
    for (const layer of wanted) byArea.set(layer.area, [...(byArea.get(layer.area) ?? []), layer])
    await Promise.all(
      [...byArea].map(async ([areaId, list]) => {
        const area = shell.areas.find((a) => a.id === areaId)
        if (!area?.openLayers) return
        const failed = await area.openLayers(list, shell)
        for (const id of failed) layers.dropPending(id)
        if (failed.length > 0)
          notice.value = `${failed.length === 1 ? 'A layer' : `${failed.length} layers`} could not be shown again: ${list
            .filter((l) => failed.includes(l.id))
            .map((l) => l.title)
            .join(', ')}.`
      }),
    )
  }

  /** Put a read project on screen: layers and styles, the areas' parts, the view. */
  async function apply(shell: Shell, project: Project, projectName: string | null): Promise<void> {
    const layers = useLayersStore()
    const pending = layers.applyLayers(project.layers)
    for (const area of shell.areas) await area.project?.open(project.areas[area.id])
    const [lon, lat] = project.view.center
    useMapStore().centerOn([lon, lat], project.view.zoom)
    name.value = projectName
    title.value = project.title
    remember()
    await openPending(shell, pending)
  }

  async function open(shell: Shell, which: string): Promise<boolean> {
    busy.value = true
    error.value = null
    notice.value = ''
    try {
      const result = await geo['project.open']({ name: which })
      if (!result.ok) {
        error.value = result.error
        return false
      }
      await apply(shell, result.value.project, result.value.name)
      notice.value ||= `Opened project ${result.value.name}.`
      return true
    } finally {
      busy.value = false
    }
  }

  /** "Open project file…": the file is checked with the contract's schema before anything changes. */
  async function openFile(shell: Shell, file: File): Promise<boolean> {
    error.value = null
    notice.value = ''
    const reading = readProject(await file.text(), file.name)
    if (!reading.ok) {
      error.value = geoError('validation', reading.message, reading.detail ? { detail: reading.detail } : {})
      return false
    }
    await apply(shell, reading.project, null)
    notice.value ||= `Opened ${file.name}.`
    return true
  }

  /** "Export project file": the project as a file the user keeps or sends. */
  async function exportFile(shell: Shell): Promise<void> {
    error.value = null
    const project = await build(shell)
    const outcome = await saveExport(
      [`${JSON.stringify(project, null, 1)}\n`],
      `${name.value ?? (title.value || 'map')}.geoproject.json`,
      'project',
    )
    if (!outcome.ok) error.value = outcome.error
    else if (outcome.savedTo) notice.value = `Exported the project to ${outcome.savedTo}.`
  }

  /**
   * At start: the layers kept from the last run come back (their areas are asked); with nothing kept, the
   * last project reopens. A last project that cannot be read is a notice, never an error.
   */
  async function startup(shell: Shell): Promise<void> {
    const layers = useLayersStore()
    if (layers.restored) {
      await openPending(shell, layers.pendingLayers)
      return
    }
    const last = await geo['project.last']({})
    if (!last.ok) return
    if (last.value.notice) notice.value = last.value.notice
    if (last.value.project && last.value.name) await apply(shell, last.value.project, last.value.name)
  }

  return {
    name,
    title,
    projects,
    error,
    notice,
    busy,
    setTitle,
    list,
    build,
    save,
    open,
    openFile,
    exportFile,
    startup,
  }
})
