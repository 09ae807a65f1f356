import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import {
  COMPARISON_FUNCTIONS,
  COMPARISON_OPERATORS,
  NEW_DATASET_NAME_MESSAGE,
  OPERATORS_BY_QUERY_TYPE,
  type JoinQueryType,
} from '@contract/gis/join-params'
import type { Dataset, GeoError } from '@contract/index'
import { geo } from '../../../bridge'
import { useDrawnShapes, type DrawnCollection } from './drawn-shapes'
import { joinFormIssues, type FormIssue } from './join-form-issues'

/** The join's parameters as the form holds them (spec names), values as typed. */
export type JoinParamsInput = Record<string, string | number | boolean>

export type DistanceUnit = 'm' | 'km'

export type { FormIssue } from './join-form-issues'

/** The geometry column of the local service's datasets. */
export const GEOMETRY_COLUMN = 'geom'

/** The fields a form control stands for; body and userGeom errors show at "Use drawn shapes". */
export const CONTROL_OF_FIELD: Readonly<Record<string, string>> = {
  body: 'userGeom',
}

export const useJoinFormStore = defineStore('join-form', () => {
  const queryType = ref<JoinQueryType>('spatialOperation')
  const datasetSource = ref('')
  const operator = ref('Intersects')
  const sourceProperty = ref(GEOMETRY_COLUMN)
  const datasetRef = ref('')
  const refProperty = ref('')
  const selectionParamSource = ref('')
  const selectionParamRef = ref('')
  const useDrawn = ref(false)
  const drawnScope = ref<'all' | 'selected'>('all')
  /** A copied run's user geometry, used instead of the drawings until the user lets go of it. */
  const runBody = ref<DrawnCollection | null>(null)
  const distance = ref('')
  const distanceUnit = ref<DistanceUnit>('m')
  const comparisonFunction = ref('')
  const comparisonOperator = ref('')
  const comparisonValue = ref('')
  const saveAsNewDataset = ref(false)
  const newDatasetNme = ref('')
  /** Errors show once the person has changed something (a fresh form is not an error). */
  const dirty = ref(false)

  const datasets = ref<Dataset[]>([])
  const datasetsError = ref<GeoError | null>(null)
  const drawn = useDrawnShapes()

  async function loadDatasets(): Promise<void> {
    const result = await geo['gis.layers']({})
    if (result.ok) {
      datasets.value = result.value.datasets
      datasetsError.value = null
    } else datasetsError.value = result.error
  }

  const operators = computed(() => OPERATORS_BY_QUERY_TYPE[queryType.value])
  const isSpatial = computed(() => queryType.value !== 'basic')
  const showDistance = computed(() => operator.value === 'DWithin')
  const showComparison = computed(() => queryType.value === 'functionBased')
  const usesDrawn = computed(() => isSpatial.value && useDrawn.value)
  const showReference = computed(() => !usesDrawn.value)
  const comparisonOperators = computed(() =>
    comparisonFunction.value === 'isEmpty' ? (['=', '<>'] as const) : COMPARISON_OPERATORS,
  )

  function fieldsOf(name: string): string[] {
    const dataset = datasets.value.find((d) => d.layername === name)
    const fields = dataset?.fields?.map((f) => f.name) ?? []
    if (!dataset) return []
    return [GEOMETRY_COLUMN, ...fields.filter((f) => f !== GEOMETRY_COLUMN)]
  }
  const sourceFields = computed(() => fieldsOf(datasetSource.value.trim()))
  const refFields = computed(() => fieldsOf(datasetRef.value.trim()))
  const datasetNames = computed(() => datasets.value.map((d) => d.layername))

  const drawnCollection = computed<DrawnCollection | null>(() => {
    if (!usesDrawn.value) return null
    if (runBody.value) return runBody.value
    return drawnScope.value === 'selected' ? drawn.selected.value : drawn.all.value
  })
  const drawnProblems = computed(() =>
    drawnCollection.value && !runBody.value ? drawn.problemsOf(drawnCollection.value) : [],
  )

  const distanceMetres = computed<number | string>(() => {
    const text = distance.value.trim()
    if (text === '') return ''
    const n = Number(text)
    if (!Number.isFinite(n)) return text
    return distanceUnit.value === 'km' ? n * 1000 : n
  })

  /** The parameters the join would send: only the fields the query type shows. */
  const params = computed<JoinParamsInput>(() => {
    const p: JoinParamsInput = {
      queryType: queryType.value,
      datasetSource: datasetSource.value.trim(),
      operator: operator.value,
      sourceProperty: sourceProperty.value.trim(),
    }
    const put = (name: string, value: string | number | boolean) => {
      if (value !== '') p[name] = value
    }
    if (usesDrawn.value) p['userGeom'] = true
    else {
      put('datasetRef', datasetRef.value.trim())
      put('refProperty', refProperty.value.trim())
      put('selectionParamRef', selectionParamRef.value.trim())
    }
    put('selectionParamSource', selectionParamSource.value.trim())
    if (showDistance.value) put('distance', distanceMetres.value)
    if (showComparison.value) {
      put('comparisonFunction', comparisonFunction.value)
      put('comparisonOperator', comparisonOperator.value)
      put('comparisonValue', comparisonValue.value.trim())
    }
    if (saveAsNewDataset.value) {
      p['saveAsNewDataset'] = true
      put('newDatasetNme', newDatasetNme.value.trim())
    }
    for (const key of Object.keys(p)) if (p[key] === '') delete p[key]
    return p
  })

  const body = computed(() => drawnCollection.value ?? undefined)

  /** Every issue: the shared validator's, then what only the app knows (taken names, drawn shapes). */
  const issues = computed<FormIssue[]>(() =>
    joinFormIssues({
      params: params.value,
      body: body.value,
      emptyDrawnScope:
        usesDrawn.value && drawnCollection.value && drawnCollection.value.features.length === 0
          ? drawnScope.value
          : null,
      drawnProblems: drawnProblems.value,
      newDatasetName: saveAsNewDataset.value ? newDatasetNme.value.trim() : '',
      datasetNames: datasetNames.value,
    }),
  )

  const issuesByField = computed(() => {
    const map = new Map<string, string[]>()
    for (const i of issues.value) map.set(i.field, [...(map.get(i.field) ?? []), i.rule])
    return map
  })
  const valid = computed(() => issues.value.length === 0)

  function touch(): void {
    dirty.value = true
  }

  function setQueryType(next: JoinQueryType): void {
    queryType.value = next
    const ops = OPERATORS_BY_QUERY_TYPE[next]
    if (!ops.includes(operator.value)) operator.value = ops[0] ?? ''
    if (next === 'basic') {
      if (sourceProperty.value === GEOMETRY_COLUMN) sourceProperty.value = ''
      if (refProperty.value === GEOMETRY_COLUMN) refProperty.value = ''
    } else if (!sourceProperty.value) sourceProperty.value = GEOMETRY_COLUMN
    touch()
  }

  /** Fill the form from a run's parameters (history's "Copy to composer"). */
  function loadParams(p: Readonly<Record<string, unknown>>, runGeometry?: DrawnCollection): void {
    const s = (name: string) => (p[name] === undefined || p[name] === null ? '' : String(p[name]))
    const type = s('queryType')
    queryType.value =
      (['basic', 'spatialOperation', 'functionBased'] as const).find((t) => t === type) ?? 'spatialOperation'
    datasetSource.value = s('datasetSource')
    operator.value = s('operator') || (OPERATORS_BY_QUERY_TYPE[queryType.value][0] ?? '')
    sourceProperty.value = s('sourceProperty')
    datasetRef.value = s('datasetRef')
    refProperty.value = s('refProperty')
    selectionParamSource.value = s('selectionParamSource')
    selectionParamRef.value = s('selectionParamRef')
    const metres = s('distance')
    distanceUnit.value = metres && Number(metres) >= 1000 && Number(metres) % 1000 === 0 ? 'km' : 'm'
    distance.value = metres && distanceUnit.value === 'km' ? String(Number(metres) / 1000) : metres
    comparisonFunction.value = s('comparisonFunction')
    comparisonOperator.value = s('comparisonOperator')
    comparisonValue.value = s('comparisonValue')
    saveAsNewDataset.value = s('saveAsNewDataset') === 'true'
    newDatasetNme.value = s('newDatasetNme')
    useDrawn.value = s('userGeom') === 'true'
    runBody.value = useDrawn.value && runGeometry ? runGeometry : null
    touch()
  }

  return {
    queryType,
    datasetSource,
    operator,
    sourceProperty,
    datasetRef,
    refProperty,
    selectionParamSource,
    selectionParamRef,
    useDrawn,
    drawnScope,
    runBody,
    distance,
    distanceUnit,
    comparisonFunction,
    comparisonOperator,
    comparisonValue,
    saveAsNewDataset,
    newDatasetNme,
    dirty,
    datasets,
    datasetsError,
    datasetNames,
    operators,
    comparisonOperators,
    isSpatial,
    showDistance,
    showComparison,
    showReference,
    usesDrawn,
    sourceFields,
    refFields,
    params,
    body,
    issues,
    issuesByField,
    valid,
    loadDatasets,
    touch,
    setQueryType,
    loadParams,
  }
})

export { COMPARISON_FUNCTIONS, NEW_DATASET_NAME_MESSAGE }
