import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import type { GeoError } from '@contract/index'
import type { MatrixProfile, MatrixResource } from '@contract/routing/matrix'
import { MAX_MATRIX_POSITIONS } from '@contract/routing/matrix'
import type { MatrixRun, PredictiveRun } from '@contract/routing/operations'
import { geo } from '../../bridge'
import { optionProblems } from './matrix-format'
import { outsidePositionsText } from './network-note'
import { useRoadNetworks } from './use-road-networks'

export interface RoutePosition {
  id: number
  lon: number
  lat: number
}

/** Hours of a day as unix seconds, local to the browser's zone (the chart's x axis). */
export function dayDepartures(date: string): number[] {
  const [y, m, d] = date.split('-').map(Number)
  return Array.from({ length: 24 }, (_, h) => Math.floor(new Date(y!, m! - 1, d!, h).getTime() / 1000))
}

/** Distance matrices and predictive runs of the positions the analyst placed; the workspace's road networks. */
export const useRoutingStore = defineStore('routing', () => {
  const positions = ref<RoutePosition[]>([])
  let nextId = 1
  /** Ids of the positions that are sources / destinations. */
  const sourceIds = ref<number[]>([])
  const destinationIds = ref<number[]>([])
  /** Clicking the map adds a position. */
  const picking = ref(false)
  const resources = ref<MatrixResource>('distance_matrix')
  const profile = ref<MatrixProfile>('driving')
  const rtype = ref<0 | 1 | undefined>(undefined)

  const running = ref(false)
  const error = ref<GeoError | null>(null)
  const result = ref<MatrixRun | null>(null)
  /** The positions as they were when the result was computed (the table and lines follow them). */
  const ranWith = ref<RoutePosition[]>([])
  const selected = ref<{ row: number; col: number } | null>(null)

  const problems = computed(() =>
    optionProblems({ resources: resources.value, profile: profile.value, rtype: rtype.value }),
  )
  const sourceIndexes = computed(() =>
    positions.value.flatMap((p, i) => (sourceIds.value.includes(p.id) ? [i] : [])),
  )
  const destinationIndexes = computed(() =>
    positions.value.flatMap((p, i) => (destinationIds.value.includes(p.id) ? [i] : [])),
  )
  /** Why "Run" is not possible now, or null. */
  const blocker = computed(() => {
    if (positions.value.length < 2) return 'Add at least two positions (click the map).'
    if (positions.value.length > MAX_MATRIX_POSITIONS)
      return `At most ${MAX_MATRIX_POSITIONS} positions including sources.`
    if (outsideProblem.value) return outsideProblem.value
    if (sourceIndexes.value.length === 0) return 'Choose at least one source.'
    if (destinationIndexes.value.length === 0) return 'Choose at least one destination.'
    return (
      problems.value.profile[profile.value] ??
      (rtype.value === undefined ? undefined : problems.value.rtype[rtype.value]) ??
      null
    )
  })

  /**
   * A click on the map while adding positions: placed when a road network of the workspace can place it,
   * else refused where it was clicked (`refusal`), before anything is run. Returns whether it was added.
   */
  function placeAt(lon: number, lat: number): boolean {
    if (!covered(lon, lat)) {
      refusal.value = { lon, lat, seq: (refusal.value?.seq ?? 0) + 1 }
      return false
    }
    refusal.value = null
    addPosition(lon, lat)
    return true
  }

  function addPosition(lon: number, lat: number): void {
    if (positions.value.length >= MAX_MATRIX_POSITIONS) return
    const id = nextId++
    positions.value = [...positions.value, { id, lon, lat }]
    if (sourceIds.value.length === 0) sourceIds.value = [id]
    destinationIds.value = [...destinationIds.value, id]
  }

  function setPositions(points: Array<[number, number]>): void {
    clear()
    for (const [lon, lat] of points.slice(0, MAX_MATRIX_POSITIONS)) addPosition(lon, lat)
  }

  function movePosition(id: number, lon: number, lat: number): void {
    positions.value = positions.value.map((p) => (p.id === id ? { id, lon, lat } : p))
  }

  function removePosition(id: number): void {
    positions.value = positions.value.filter((p) => p.id !== id)
    sourceIds.value = sourceIds.value.filter((x) => x !== id)
    destinationIds.value = destinationIds.value.filter((x) => x !== id)
  }

  function clear(): void {
    refusal.value = null
    positions.value = []
    sourceIds.value = []
    destinationIds.value = []
    result.value = null
    ranWith.value = []
    selected.value = null
    error.value = null
  }

  function toggle(list: typeof sourceIds, id: number): void {
    list.value = list.value.includes(id) ? list.value.filter((x) => x !== id) : [...list.value, id]
  }

  const toggleSource = (id: number) => toggle(sourceIds, id)
  const toggleDestination = (id: number) => toggle(destinationIds, id)

  async function run(): Promise<void> {
    if (blocker.value || running.value) return
    running.value = true
    error.value = null
    const snapshot = positions.value.map((p) => ({ ...p }))
    const response = await geo['routing.matrix']({
      resources: resources.value,
      profile: profile.value,
      positions: snapshot.map((p) => `${p.lon.toFixed(6)},${p.lat.toFixed(6)}`),
      sources: sourceIndexes.value,
      destinations: destinationIndexes.value,
      ...(rtype.value !== undefined ? { rtype: rtype.value } : {}),
    })
    running.value = false
    if (!response.ok) {
      error.value = response.error
      return
    }
    result.value = response.value
    ranWith.value = snapshot
    selected.value = null
  }

  // Predictive: start = first position, end = last, vias between.
  const predictiveDate = ref(new Date().toISOString().slice(0, 10))
  const predictiveHour = ref(new Date().getHours())
  const predictiveRunning = ref(false)
  const predictiveError = ref<GeoError | null>(null)
  const predictive = ref<PredictiveRun | null>(null)

  async function runPredictive(): Promise<void> {
    if (positions.value.length < 2 || outsideProblem.value || predictiveRunning.value) return
    predictiveRunning.value = true
    predictiveError.value = null
    const response = await geo['routing.predictive']({
      coordinates: positions.value.map((p) => `${p.lon.toFixed(6)},${p.lat.toFixed(6)}`),
      departures: dayDepartures(predictiveDate.value),
    })
    predictiveRunning.value = false
    if (!response.ok) predictiveError.value = response.error
    else predictive.value = response.value
  }

  // Road networks of the workspace.
  const roads = useRoadNetworks()
  const { networks, checksCoverage, covered } = roads
  /** Ids of the positions no network can place (moved there, or put there by another area). */
  const outsideIds = computed(() => positions.value.filter((p) => !covered(p.lon, p.lat)).map((p) => p.id))
  const outsideProblem = computed(() =>
    outsidePositionsText(positions.value.flatMap((p, i) => (outsideIds.value.includes(p.id) ? [i + 1] : []))),
  )
  /** The last click refused for being outside every network (shown where it was clicked), or null. */
  const refusal = ref<{ lon: number; lat: number; seq: number } | null>(null)
  return {
    positions,
    sourceIds,
    destinationIds,
    picking,
    resources,
    profile,
    rtype,
    running,
    error,
    result,
    ranWith,
    selected,
    problems,
    blocker,
    sourceIndexes,
    destinationIndexes,
    addPosition,
    placeAt,
    setPositions,
    movePosition,
    removePosition,
    clear,
    toggleSource,
    toggleDestination,
    run,
    predictiveDate,
    predictiveHour,
    predictiveRunning,
    predictiveError,
    predictive,
    runPredictive,
    networks,
    networksLoaded: roads.networksLoaded,
    checksCoverage,
    outsideIds,
    outsideProblem,
    refusal,
    speedModel: roads.speedModel,
    networksError: roads.networksError,
    importing: roads.importing,
    refreshNetworks: roads.refreshNetworks,
    importNetwork: roads.importNetwork,
    cancelImport: roads.cancelImport,
    removeNetwork: roads.removeNetwork,
  }
})
