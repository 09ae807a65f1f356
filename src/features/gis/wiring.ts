import { gisProjectPartSchema, type GisProjectPart } from '@contract/gis/project-part'
import type { ProjectLayer } from '@contract/index'
import { useDatasetsStore } from './datasets/datasets-store'
import { useDrawingsStore } from './draw/drawings-store'
import { useHistoryStore } from './history/history-store'
import { useJoinFormStore } from './composer/join-form-store'
import { useJoinRunStore } from './composer/join-run-store'
import { useResultsStore } from './results/results-store'
import type { Shell } from '../shell/shell'
import { GIS_PANELS } from './panels'

/**
 * What holds whether or not the area's panels are on screen: a finished run shows its result (and the
 * Results tab, without taking focus), a saved dataset refreshes the composer's list, and every attempt
 * refreshes the run history.
 */
export function wireGis(shell: Shell): () => void {
  const runner = useJoinRunStore()
  const results = useResultsStore()
  const form = useJoinFormStore()
  const history = useHistoryStore()
  const stops = [
    runner.onFinished(({ request, result }) => {
      results.show(result, request)
      if (result.savedDataset) void form.loadDatasets()
      void shell.run('panel.show', { id: GIS_PANELS.results, focus: false })
    }),
    runner.onSettled(() => void history.load()),
  ]
  return () => stops.forEach((stop) => stop())
}

/** "Zoom to results": the extent of the rows the table shows. */
export function zoomToResults(shell: Shell): Promise<void> {
  const extent = useResultsStore().summary.extent
  return extent ? shell.run('map.zoomTo', { extent }) : Promise.resolve()
}

export function resultsHaveExtent(): boolean {
  return useResultsStore().summary.extent !== null
}

/**
 * Bring back the area's layers the list wants (after a restart, or from a project): datasets by name,
 * join results by their run (when the history kept its rows). Returns the ids it could not bring back.
 */
export async function openGisLayers(layers: readonly ProjectLayer[]): Promise<string[]> {
  const datasets = useDatasetsStore()
  const failed: string[] = []
  await Promise.all(
    layers.map(async (layer) => {
      if (layer.kind === 'dataset' && layer.ref) {
        if (datasets.datasets.length === 0) await datasets.refresh()
        await datasets.show(layer.ref)
        if (!datasets.isShown(layer.ref)) failed.push(layer.id)
      } else if (layer.kind === 'results' && layer.ref) {
        if (!(await useHistoryStore().reopen(layer.ref))) failed.push(layer.id)
      } else if (layer.kind === 'drawings') {
        const drawings = useDrawingsStore()
        await drawings.load()
        if (drawings.shapes.length === 0) failed.push(layer.id)
      } else failed.push(layer.id)
    }),
  )
  return failed
}

/** The area's part of a project: the drawings. */
export function gisProjectPart(): GisProjectPart {
  return { drawings: useDrawingsStore().collection as unknown as GisProjectPart['drawings'] }
}

/** A project's drawings replace the current ones (one undo step). */
export async function openGisProjectPart(part: unknown): Promise<void> {
  const drawings = useDrawingsStore()
  await drawings.load()
  const checked = gisProjectPartSchema.safeParse(
    part ?? { drawings: { type: 'FeatureCollection', features: [] } },
  )
  if (checked.success) drawings.replaceAll(checked.data.drawings.features)
}
