import { describe, expect, it } from 'vitest'
import { primaryIssue, STATUS_BY_ISSUE_KIND } from '../../../../electron/contract/common/issues'
import { joinParamsSchema, validateJoinRequest } from '../../../../electron/contract/gis/join-params'

const square = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: {},
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [77.1, 28.5],
            [77.2, 28.5],
            [77.2, 28.6],
            [77.1, 28.5],
          ],
        ],
      },
    },
  ],
}

const spatial = {
  queryType: 'spatialOperation',
  datasetSource: 'wards',
  datasetRef: 'parks',
  operator: 'Intersects',
  sourceProperty: 'geom',
}

function issuesOf(params: Record<string, unknown> | URLSearchParams, body?: unknown) {
  const r = validateJoinRequest(params, body)
  return r.ok ? [] : r.issues
}

describe('validateJoinRequest', () => {
  it('accepts a spatial join between two datasets and types the values', () => {
    const r = validateJoinRequest(
      new URLSearchParams({ ...spatial, saveAsNewDataset: 'true', newDatasetNme: 'wards_x' }),
    )
    expect(r).toEqual({
      ok: true,
      value: { params: { ...spatial, saveAsNewDataset: true, newDatasetNme: 'wards_x' } },
    })
  })

  it('names each missing required parameter as missing (422)', () => {
    const issues = issuesOf({})
    expect(issues.filter((i) => i.kind === 'missing').map((i) => i.field)).toEqual(
      expect.arrayContaining(['queryType', 'datasetSource', 'operator', 'sourceProperty']),
    )
    expect(STATUS_BY_ISSUE_KIND[primaryIssue(issues)!.kind]).toBe(422)
  })

  it('DWithin needs a non-negative distance', () => {
    expect(issuesOf({ ...spatial, operator: 'DWithin' })).toEqual([
      expect.objectContaining({ field: 'distance', kind: 'missing' }),
    ])
    expect(issuesOf({ ...spatial, operator: 'DWithin', distance: '-3' })).toEqual([
      expect.objectContaining({ field: 'distance', kind: 'invalid' }),
    ])
    expect(issuesOf({ ...spatial, operator: 'DWithin', distance: 'abc' })[0]?.field).toBe('distance')
    expect(validateJoinRequest({ ...spatial, operator: 'DWithin', distance: '250.5' })).toMatchObject({
      ok: true,
      value: { params: { distance: 250.5 } },
    })
    expect(issuesOf({ ...spatial, distance: 10 })).toEqual([
      expect.objectContaining({ field: 'distance', kind: 'conflict' }),
    ])
  })

  it('checks operators per queryType as a conflict', () => {
    expect(issuesOf({ ...spatial, operator: 'IN' })).toEqual([
      expect.objectContaining({ field: 'operator', kind: 'conflict' }),
    ])
    expect(issuesOf({ ...spatial, operator: 'Near' })).toEqual([
      expect.objectContaining({ field: 'operator', kind: 'invalid' }),
    ])
    const basic = {
      queryType: 'basic',
      datasetSource: 'a',
      datasetRef: 'b',
      sourceProperty: 'x',
      refProperty: 'y',
    }
    for (const op of ['=', '<>', '<', '>', '<=', '>=', 'IN', 'NOT IN']) {
      expect(validateJoinRequest({ ...basic, operator: op }).ok).toBe(true)
    }
    expect(issuesOf({ ...basic, operator: 'Within' })[0]).toMatchObject({
      field: 'operator',
      kind: 'conflict',
    })
  })

  it('a basic query needs datasetRef and refProperty', () => {
    const issues = issuesOf({ queryType: 'basic', datasetSource: 'a', operator: '=', sourceProperty: 'x' })
    expect(issues.map((i) => [i.field, i.kind])).toEqual([
      ['datasetRef', 'missing'],
      ['refProperty', 'missing'],
    ])
  })

  it('functionBased needs the comparison triple, a number for Area/Length and a boolean for isEmpty', () => {
    const fb = { ...spatial, queryType: 'functionBased' }
    expect(issuesOf(fb).map((i) => i.field)).toEqual([
      'comparisonFunction',
      'comparisonOperator',
      'comparisonValue',
    ])
    expect(
      validateJoinRequest({
        ...fb,
        comparisonFunction: 'Area',
        comparisonOperator: '>=',
        comparisonValue: '1000',
      }),
    ).toMatchObject({
      ok: true,
      value: { params: { comparisonValue: 1000 } },
    })
    expect(
      issuesOf({ ...fb, comparisonFunction: 'Length', comparisonOperator: '<', comparisonValue: 'true' }),
    ).toEqual([expect.objectContaining({ field: 'comparisonValue', kind: 'invalid' })])
    expect(
      issuesOf({ ...fb, comparisonFunction: 'isEmpty', comparisonOperator: '=', comparisonValue: '12' })[0],
    ).toMatchObject({
      field: 'comparisonValue',
    })
    expect(
      validateJoinRequest({
        ...fb,
        comparisonFunction: 'isEmpty',
        comparisonOperator: '=',
        comparisonValue: 'false',
      }),
    ).toMatchObject({
      ok: true,
      value: { params: { comparisonValue: false } },
    })
    expect(
      issuesOf({ ...fb, comparisonFunction: 'isEmpty', comparisonOperator: '>', comparisonValue: true })[0],
    ).toMatchObject({
      field: 'comparisonOperator',
      kind: 'conflict',
    })
    expect(issuesOf({ ...spatial, comparisonFunction: 'Area' })[0]).toMatchObject({
      field: 'comparisonFunction',
      kind: 'conflict',
    })
  })

  it('saveAsNewDataset=true needs a safe newDatasetNme', () => {
    expect(issuesOf({ ...spatial, saveAsNewDataset: 'true' })).toEqual([
      expect.objectContaining({ field: 'newDatasetNme', kind: 'missing' }),
    ])
    for (const bad of ['../etc', 'a/b', '1abc', 'x'.repeat(64), 'has space', 'a.b', '_x']) {
      expect(issuesOf({ ...spatial, saveAsNewDataset: 'true', newDatasetNme: bad })).toEqual([
        expect.objectContaining({ field: 'newDatasetNme', kind: 'invalid' }),
      ])
    }
    expect(issuesOf({ ...spatial, newDatasetNme: 'abc' })[0]).toMatchObject({
      field: 'newDatasetNme',
      kind: 'conflict',
    })
    expect(issuesOf({ ...spatial, saveAsNewDataset: 'yes' })[0]).toMatchObject({
      field: 'saveAsNewDataset',
      kind: 'invalid',
    })
  })

  it('userGeom=true needs a valid FeatureCollection body instead of datasetRef', () => {
    const { datasetRef: _omit, ...noRef } = spatial
    expect(validateJoinRequest({ ...noRef, userGeom: 'true' }, square)).toMatchObject({
      ok: true,
      value: { body: square },
    })
    expect(issuesOf({ ...noRef, userGeom: 'true' })).toEqual([
      expect.objectContaining({ field: 'body', kind: 'missing' }),
    ])
    expect(issuesOf({ ...spatial, userGeom: 'true' }, square)[0]).toMatchObject({
      field: 'datasetRef',
      kind: 'conflict',
    })
    expect(issuesOf(noRef)[0]).toMatchObject({ field: 'datasetRef', kind: 'missing' })
    const open = structuredClone(square)
    open.features[0]!.geometry.coordinates[0]!.pop()
    expect(issuesOf({ ...noRef, userGeom: true }, open)[0]!.rule).toMatch(/at least 4|closed/)
    const far = structuredClone(square)
    far.features[0]!.geometry.coordinates[0]![1] = [200, 28.5]
    expect(issuesOf({ ...noRef, userGeom: true }, far)[0]).toMatchObject({
      field: 'body.features.0.geometry.coordinates.0.1',
      kind: 'invalid',
    })
    const nan = structuredClone(square) as { features: Array<{ geometry: { coordinates: unknown[][] } }> }
    nan.features[0]!.geometry.coordinates[0]![1] = [Number.NaN, 1]
    expect(issuesOf({ ...noRef, userGeom: true }, nan)[0]!.rule).toMatch(/finite/)
    expect(issuesOf({ ...noRef, userGeom: true }, { type: 'Feature' })[0]!.field).toBe('body.type')
    expect(
      issuesOf({ ...noRef, userGeom: true }, { type: 'FeatureCollection', features: [] })[0]!.field,
    ).toBe('body.features')
    const other = (type: string, coordinates: unknown) => ({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', properties: null, geometry: { type, coordinates } }],
    })
    expect(
      validateJoinRequest(
        { ...noRef, userGeom: true },
        other('LineString', [
          [0, 0],
          [1, 1],
        ]),
      ).ok,
    ).toBe(true)
    expect(issuesOf({ ...noRef, userGeom: true }, other('LineString', [[0, 0]]))[0]!.rule).toMatch(
      /at least 2/,
    )
    expect(issuesOf({ ...noRef, userGeom: true }, other('Circle', [0, 0]))[0]!.field).toBe(
      'body.features.0.geometry.type',
    )
  })

  it('flags unknown and repeated parameters as malformed, with a hint for the spec spelling', () => {
    expect(issuesOf({ ...spatial, newDatasetName: 'x' })[0]).toMatchObject({
      field: 'newDatasetName',
      kind: 'invalid',
      rule: expect.stringMatching(/newDatasetNme/),
    })
    const q = new URLSearchParams(spatial)
    q.append('operator', 'Within')
    expect(issuesOf(q)[0]).toMatchObject({ field: 'operator', kind: 'invalid' })
  })

  it('the zod schema applies the same rules and carries the kind', () => {
    const r = joinParamsSchema.safeParse({ ...spatial, operator: 'DWithin' })
    expect(r.success).toBe(false)
    expect(r.error?.issues[0]).toMatchObject({ path: ['distance'], params: { kind: 'missing' } })
    expect(joinParamsSchema.parse({ ...spatial, userGeom: 'false' })).toMatchObject({ userGeom: false })
  })
})
