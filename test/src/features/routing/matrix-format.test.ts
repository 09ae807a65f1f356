import { describe, expect, it } from 'vitest'
import {
  formatHmm,
  formatKm,
  heat,
  matrixCsv,
  matrixTsv,
  optionProblems,
} from '../../../../src/features/routing/matrix-format'

describe('matrix formatting and options', () => {
  it('shows km with one decimal and h:mm, a dash for no route', () => {
    expect(formatKm(1534)).toBe('1.5 km')
    expect(formatHmm(3599)).toBe('1:00')
    expect(formatHmm(125)).toBe('0:02')
    expect(formatKm(null)).toBe('—')
    expect(formatHmm(null)).toBe('—')
    expect(heat(5, 0, 10)).toBe(0.5)
    expect(heat(null, 0, 10)).toBeNull()
  })

  it('explains the options that cannot go with the current choice, in the validator’s words', () => {
    const p = optionProblems({ resources: 'distance_matrix_eta', profile: 'driving' })
    expect(p.profile.walking).toMatch(/available with resources distance_matrix only/)
    expect(p.profile.trucking).toBeUndefined()
    expect(p.rtype[1]).toMatch(/not supported with distance_matrix_eta/)
    const biking = optionProblems({ resources: 'distance_matrix', profile: 'biking' })
    expect(biking.rtype[0]).toMatch(/not supported for profile biking/)
    expect(biking.resources.distance_matrix_traffic).toMatch(/biking is available/)
  })

  it('writes CSV (km, minutes) and tab-separated text for the clipboard', () => {
    const csv = matrixCsv([0], [0, 1], [[0, 1500]], [[0, 90]])
    expect(csv).toBe('from \\ to,1 km,1 min,2 km,2 min\r\n1,0.000,0.0,1.500,1.5\r\n')
    expect(matrixTsv([0], [1], [[null]], [[null]])).toBe('from \\ to\t2\n1\t— —\n')
  })
})
