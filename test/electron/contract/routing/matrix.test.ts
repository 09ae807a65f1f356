import { describe, expect, it } from 'vitest'
import {
  matrixResponseSchema,
  validateMatrix,
  validatePredictive,
  matrixErrorCode,
  combinationIssues,
} from '../../../../electron/contract/routing/matrix'

const base = { resources: 'distance_matrix', profile: 'driving', geopositions: '77.1,28.6;77.2,28.7' }
const issues = (p: Record<string, unknown>) => {
  const r = validateMatrix(p)
  return r.ok ? [] : r.issues.map((i) => `${i.field}:${i.kind}`)
}

describe('matrix validators (§4.3, §4.4, §8)', () => {
  it('allows biking and walking with distance_matrix only; rtype/region not for biking; rtype=1 not with eta', () => {
    expect(issues({ ...base, profile: 'walking' })).toEqual([])
    expect(issues({ ...base, profile: 'walking', resources: 'distance_matrix_traffic' })).toEqual([
      'profile:conflict',
    ])
    expect(issues({ ...base, profile: 'biking', rtype: 0 })).toEqual(['rtype:conflict'])
    expect(issues({ ...base, resources: 'distance_matrix_eta', rtype: 1 })).toEqual(['rtype:conflict'])
    expect(issues({ ...base, resources: 'distance_matrix_eta', rtype: 0, profile: 'trucking' })).toEqual([])
  })
  it('counts at most 100 positions and checks index ranges', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => `${i / 10},1`).join(';')
    expect(issues({ ...base, geopositions: hundred, sources: '0;99' })).toEqual([])
    expect(issues({ ...base, geopositions: `${hundred};1,1` })).toEqual(['geopositions:invalid'])
    expect(issues({ ...base, sources: '0;5' })).toEqual(['sources:invalid'])
    expect(issues({ ...base, sources: '0,1' })).toEqual(['sources:invalid'])
  })
  it('predictive takes lon,lat pairs only, no eLocs', () => {
    expect(validatePredictive({ coordinates: '1,2;MMI000' }).ok).toBe(false)
    expect(validatePredictive({ coordinates: '1,2;3,4', dep_time: -1 }).ok).toBe(false)
    expect(validatePredictive({ coordinates: '1,2;3,4;5,6' }).ok).toBe(true)
  })
  it('reads responseCode as integer or string and never yields NaN cells', () => {
    const r = matrixResponseSchema.parse({
      responseCode: '200',
      results: { code: 'Ok', distances: [[0, 'x', null, '5']] },
    })
    expect(r.responseCode).toBe(200)
    expect(r.results.distances).toEqual([[0, null, null, 5]])
  })
  it('names the spec code of a refused request: InvalidService, InvalidOptions or InvalidQuery', () => {
    const code = (params: Record<string, unknown>) => {
      const r = validateMatrix(params)
      return r.ok ? 'Ok' : matrixErrorCode(r.issues)
    }
    expect(code({ ...base, resources: 'distance_matrix_live' })).toBe('InvalidService')
    expect(code({ ...base, profile: 'flying' })).toBe('InvalidService')
    expect(code({ ...base, profile: 'walking', resources: 'distance_matrix_eta' })).toBe('InvalidOptions')
    expect(code({ ...base, profile: 'biking', rtype: 1 })).toBe('InvalidOptions')
    expect(code({ ...base, rtype: 3 })).toBe('InvalidOptions')
    expect(code({ ...base, geopositions: '1,2;north' })).toBe('InvalidQuery')
    expect(code({ ...base, sources: '0;9' })).toBe('InvalidQuery')
    const many = Array.from({ length: 101 }, () => '1,1').join(';')
    expect(code({ ...base, geopositions: many })).toBe('InvalidQuery')
    expect(
      combinationIssues({ resources: 'distance_matrix_traffic', profile: 'biking' }).map((i) => i.field),
    ).toEqual(['profile'])
    expect(combinationIssues({ resources: 'distance_matrix', profile: 'trucking', rtype: 1 })).toEqual([])
  })
})
