import type { LonLat } from '../../geo/coordinates'
import { useMapStore } from '../map/view/map-store'
import { GEOMETRY_COLUMN, useJoinFormStore } from './composer/join-form-store'
import { useJoinRunStore } from './composer/join-run-store'
import { useDatasetsStore } from './datasets/datasets-store'
import { useDrawingsStore } from './draw/drawings-store'

/**
 * What other areas may ask of spatial analytics through the shell (`gis.showDataset`, `gis.joinInCircle`),
 * e.g. the first run's "Start here": each does the real thing (on the map, in the composer, in Results)
 * and fails with a sentence saying what went wrong.
 */

async function localDataset(name: string): Promise<void> {
  const datasets = useDatasetsStore()
  if (!datasets.datasets.some((d) => d.layername === name)) await datasets.refresh()
  if (datasets.listError) throw new Error(`The datasets could not be listed: ${datasets.listError.message}`)
  if (!datasets.datasets.some((d) => d.layername === name && d.local))
    throw new Error(`The active profile has no local dataset named "${name}".`)
}

/** Show a local dataset on the map (its layer joins the layer list). */
export async function showDataset(name: string): Promise<void> {
  await localDataset(name)
  const datasets = useDatasetsStore()
  await datasets.show(name)
  if (!datasets.isShown(name))
    throw new Error(datasets.showError?.message ?? `${name} could not be shown on the map.`)
}

/**
 * Draw a circle (a real drawn shape, saved with the drawings), then join `dataset` with it — Intersects, the
 * new shape alone — through the composer, as a person would: the form shows what ran, the rows arrive in
 * Results and the features on the map. Resolves once the join has finished.
 */
export async function joinInCircle({
  dataset,
  center,
  radiusMetres,
}: {
  dataset: string
  center: LonLat
  radiusMetres: number
}): Promise<void> {
  await localDataset(dataset)
  const runner = useJoinRunStore()
  if (runner.running) throw new Error('A join is running: wait for it to finish, then try again.')
  const drawings = useDrawingsStore()
  await drawings.load()
  const id = drawings.addCircle([...center], radiusMetres)
  drawings.setSelection([id])
  const box = drawings.boxOf([id])
  if (box) useMapStore().fitTo(box)

  const form = useJoinFormStore()
  await form.loadDatasets()
  form.setQueryType('spatialOperation')
  form.datasetSource = dataset
  form.operator = 'Intersects'
  form.sourceProperty = GEOMETRY_COLUMN
  const fields = form.sourceFields
  form.selectionParamSource = [
    ...['name', 'population'].filter((f) => fields.includes(f)),
    GEOMETRY_COLUMN,
  ].join(',')
  form.useDrawn = true
  form.drawnScope = 'selected'
  form.runBody = null
  form.saveAsNewDataset = false
  if (!form.valid)
    throw new Error(`The join cannot run: ${form.issues.map((i) => `${i.field} ${i.rule}`).join('; ')}.`)
  const result = await runner.run({ params: form.params, ...(form.body ? { body: form.body } : {}) })
  if (!result) throw new Error(`The join did not finish: ${runner.error?.message ?? 'it was cancelled'}.`)
}
