import type { RunSummary } from '@contract/index'

/** "india_cities Intersects 2 drawn shapes", "india_cities DWithin india_states (5000 m) → saved as x". */
export function runParamsSummary(run: Pick<RunSummary, 'params' | 'body'>): string {
  const p = run.params
  const s = (k: string) => (p[k] === undefined ? '' : String(p[k]))
  const ref =
    s('userGeom') === 'true'
      ? `${run.body?.features.length ?? 0} drawn ${run.body?.features.length === 1 ? 'shape' : 'shapes'}`
      : s('datasetRef') || '?'
  const parts = [`${s('datasetSource') || '?'} ${s('operator') || '?'} ${ref}`]
  if (s('queryType') === 'basic')
    parts[0] = `${s('datasetSource')}.${s('sourceProperty')} ${s('operator')} ${ref}.${s('refProperty')}`
  if (s('distance')) parts.push(`(${s('distance')} m)`)
  if (s('comparisonFunction'))
    parts.push(`where ${s('comparisonFunction')} ${s('comparisonOperator')} ${s('comparisonValue')}`)
  if (s('selectionParamSource')) parts.push(`[${s('selectionParamSource')}]`)
  if (s('saveAsNewDataset') === 'true') parts.push(`→ save as ${s('newDatasetNme')}`)
  return parts.join(' ')
}

export function runStatusText(run: Pick<RunSummary, 'status' | 'failureClass' | 'message'>): string {
  if (run.failureClass) return `failed: ${run.failureClass}${run.status ? ` (HTTP ${run.status})` : ''}`
  return run.status ? `succeeded (HTTP ${run.status})` : 'succeeded'
}
