import { describe, expect, it } from 'vitest'
import { joinFormIssues, type JoinFormState } from '../../../../../src/features/gis/composer/join-form-issues'

const base: JoinFormState = {
  params: {
    queryType: 'spatialOperation',
    datasetSource: 'wards',
    operator: 'Intersects',
    sourceProperty: 'geom',
    userGeom: true,
  },
  body: { type: 'FeatureCollection', features: [] },
  emptyDrawnScope: null,
  drawnProblems: [],
  newDatasetName: '',
  datasetNames: ['wards', 'Schools_2024'],
}

describe('joinFormIssues', () => {
  it('says in the analyst’s words that no drawn shape is selected, instead of the validator’s body rule', () => {
    const issues = joinFormIssues({ ...base, emptyDrawnScope: 'selected' })
    expect(issues).toContainEqual({
      field: 'userGeom',
      rule: 'no drawn shape is selected: select one, or use all drawn shapes',
    })
    expect(issues.some((i) => i.rule.startsWith('body.features:'))).toBe(false)
  })

  it('refuses a new dataset name that differs from an existing one only in case', () => {
    const issues = joinFormIssues({
      ...base,
      params: { ...base.params, saveAsNewDataset: true, newDatasetNme: 'schools_2024' },
      body: {
        type: 'FeatureCollection',
        features: [{ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [77, 28] } }],
      },
      newDatasetName: 'schools_2024',
    })
    expect(issues).toEqual([
      { field: 'newDatasetNme', rule: 'is taken: a dataset named "Schools_2024" exists' },
    ])
  })

  it('puts each drawn shape’s problem at "Use drawn shapes"', () => {
    const issues = joinFormIssues({
      ...base,
      body: {
        type: 'FeatureCollection',
        features: [{ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [77, 28] } }],
      },
      drawnProblems: ['Polygon 1 crosses itself'],
    })
    expect(issues).toEqual([
      { field: 'userGeom', rule: 'Polygon 1 crosses itself — fix the shape before running' },
    ])
  })
})
