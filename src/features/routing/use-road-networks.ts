import { computed, ref } from 'vue'
import {
  geoError,
  importFileProblem,
  LOCAL_PROFILE,
  NETWORK_IMPORT_EXTENSIONS,
  type GeoError,
} from '@contract/index'
import { boxCovers } from '@contract/routing/coverage'
import type { NetworkInfo } from '@contract/routing/operations'
import { geo, geoEvents, geoFiles } from '../../bridge'
import { useSettingsStore } from '../settings/settings-store'

/**
 * The workspace's road networks: the list (and the speed model it names), importing one with progress and
 * cancel, removing one, and whether a position can be placed on any of them.
 */
export function useRoadNetworks() {
  const settings = useSettingsStore()
  const networks = ref<NetworkInfo[]>([])
  /** The list was read from the local service at least once (so "outside every network" can be told). */
  const networksLoaded = ref(false)
  /**
   * Positions are checked against the networks' boxes on the Local profile (the local service routes on
   * the workspace's networks only); a cloud profile's service covers its own region.
   */
  const checksCoverage = computed(() => networksLoaded.value && settings.activeProfile === LOCAL_PROFILE)
  function covered(lon: number, lat: number): boolean {
    return !checksCoverage.value || networks.value.some((n) => boxCovers(n.bbox, lon, lat))
  }
  const speedModel = ref<{ name: string; model: boolean } | null>(null)
  const networksError = ref<GeoError | null>(null)
  const importing = ref<{ importId: string; fileName: string; phase: string; fraction: number } | null>(null)

  async function refreshNetworks(): Promise<void> {
    const response = await geo['routing.networks']({})
    if (!response.ok) {
      networksError.value = response.error
      return
    }
    networksError.value = null
    networks.value = response.value.networks
    networksLoaded.value = true
    speedModel.value = response.value.speedModel
  }

  async function importNetwork(file: File): Promise<void> {
    const importId = `import-${Date.now()}`
    importing.value = { importId, fileName: file.name, phase: 'uploading', fraction: 0 }
    networksError.value = null
    const off = geoEvents.on('routing.importProgress', (p) => {
      if (importing.value?.importId === p.importId) importing.value = { ...importing.value, ...p }
    })
    try {
      const problem = importFileProblem(file.name, file.size, NETWORK_IMPORT_EXTENSIONS)
      if (problem) {
        networksError.value = geoError('validation', problem, { field: 'file' })
        return
      }
      const offered = await geoFiles.offerForImport(file)
      if (!offered.ok) {
        networksError.value = offered.error
        return
      }
      const response = await geo['routing.importNetwork']({ importId, file: offered.value.file })
      if (!response.ok) networksError.value = response.error
      await refreshNetworks()
    } finally {
      off()
      importing.value = null
    }
  }

  async function cancelImport(): Promise<void> {
    if (importing.value) await geo['routing.cancelImport']({ importId: importing.value.importId })
  }

  async function removeNetwork(id: string): Promise<void> {
    const response = await geo['routing.removeNetwork']({ id })
    if (!response.ok) networksError.value = response.error
    await refreshNetworks()
  }

  return {
    networks,
    networksLoaded,
    checksCoverage,
    covered,
    speedModel,
    networksError,
    importing,
    refreshNetworks,
    importNetwork,
    cancelImport,
    removeNetwork,
  }
}
