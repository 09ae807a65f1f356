import { NEW_DATASET_NAME_RULE, validateJoinRequest } from '@contract/gis/join-params'

/** One inline error: the field as the spec names it and the rule it breaks. */
export interface FormIssue {
  field: string
  rule: string
}

export interface JoinFormState {
  /** The parameters the join would send. */
  params: Record<string, string | number | boolean>
  /** The GeoJSON body the join would send (drawn shapes), if any. */
  body: unknown
  /** When drawn shapes are used and there are none in scope: which scope ('all' or 'selected'); else null. */
  emptyDrawnScope: 'all' | 'selected' | null
  /** What is wrong with the drawn shapes in scope, one sentence each. */
  drawnProblems: readonly string[]
  /** The new dataset's name when "Save as new dataset" is on, else ''. */
  newDatasetName: string
  datasetNames: readonly string[]
}

/**
 * The join form's issues: the shared validator's (what the service would refuse), then what only the app
 * knows, said in the analyst's words — no drawn shape in scope, a drawn shape that cannot be sent, a new
 * dataset name that is taken.
 */
export function joinFormIssues(state: JoinFormState): FormIssue[] {
  const checked = validateJoinRequest(state.params, state.body)
  const out: FormIssue[] = checked.ok
    ? []
    : checked.issues.map((i) => ({
        field: i.field.startsWith('body') ? 'userGeom' : i.field,
        rule: i.field.startsWith('body.') ? `${i.field}: ${i.rule}` : i.rule,
      }))
  if (state.emptyDrawnScope) {
    const rule =
      state.emptyDrawnScope === 'selected'
        ? 'no drawn shape is selected: select one, or use all drawn shapes'
        : 'there are no drawn shapes: draw one on the map first'
    // Said in the analyst's words instead of the validator's "body.features: needs at least one feature".
    const others = out.filter((i) => !(i.field === 'userGeom' && i.rule.startsWith('body.features:')))
    out.splice(0, out.length, ...others, { field: 'userGeom', rule })
  }
  for (const problem of state.drawnProblems) {
    out.push({ field: 'userGeom', rule: `${problem} — fix the shape before running` })
  }
  const name = state.newDatasetName
  if (name && NEW_DATASET_NAME_RULE.test(name)) {
    const taken = state.datasetNames.find((n) => n.toLowerCase() === name.toLowerCase())
    if (taken) out.push({ field: 'newDatasetNme', rule: `is taken: a dataset named "${taken}" exists` })
  }
  return out
}
