import { useHistoryStore } from '../history/history-store'
import { useJoinFormStore } from '../join/join-form-store'
import { useJoinRunStore } from '../join/join-run-store'
import { useResultsStore } from '../results/results-store'
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
