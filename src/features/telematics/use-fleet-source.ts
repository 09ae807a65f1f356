import { ref, shallowRef } from 'vue'
import type { GeoError } from '@contract/index'
import type { FleetConfigure, FleetStatus, Geofences } from '@contract/telematics/fleet'
import { geo } from '../../bridge'

/**
 * Where the fleet comes from: its status (simulation, replays), changing it, and the geofences. A change
 * to the simulated fleet polls the whole fleet again (`pollAll`).
 */
export function useFleetSource(pollAll: () => Promise<void>) {
  const status = ref<FleetStatus | null>(null)
  const statusError = ref<GeoError | null>(null)
  const configuring = ref(false)
  const geofences = shallowRef<Geofences | null>(null)
  const geofencesError = ref<GeoError | null>(null)

  async function refreshStatus(): Promise<void> {
    const result = await geo['telematics.status']({})
    if (result.ok) {
      status.value = result.value
      statusError.value = null
    } else statusError.value = result.error
  }

  /** Change the simulated fleet or the geofence layer; the next poll lists the whole fleet again. */
  async function configure(request: FleetConfigure): Promise<boolean> {
    configuring.value = true
    try {
      const result = await geo['telematics.configure'](request)
      if (!result.ok) {
        statusError.value = result.error
        return false
      }
      status.value = result.value
      statusError.value = null
      if ('geofenceDataset' in request) void loadGeofences()
      if (request.vehicles !== undefined || request.seed !== undefined || request.network !== undefined)
        await pollAll()
      return true
    } finally {
      configuring.value = false
    }
  }

  async function createZones(): Promise<void> {
    configuring.value = true
    const result = await geo['telematics.createZones']({})
    configuring.value = false
    if (!result.ok) {
      statusError.value = result.error
      return
    }
    status.value = result.value
    statusError.value = null
    await loadGeofences()
  }

  async function loadGeofences(): Promise<void> {
    const result = await geo['telematics.geofences']({})
    if (result.ok) {
      geofences.value = result.value
      geofencesError.value = null
    } else geofencesError.value = result.error
  }

  return {
    status,
    statusError,
    configuring,
    geofences,
    geofencesError,
    refreshStatus,
    configure,
    createZones,
    loadGeofences,
  }
}
