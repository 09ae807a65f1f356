import { describe, expect, it } from 'vitest'
import {
  categorizedStyle,
  classify,
  classOf,
  fieldsOf,
  graduatedStyle,
  heatmapStyle,
  legendOf,
  qualitativeColours,
  rampColours,
  singleStyle,
  toHex,
  topCategories,
} from '../../../../../src/features/map/layers/symbology'

const HEX = /^#[0-9a-f]{6}$/

describe('palettes', () => {
  it('gives ColorBrewer’s own classes where it has them, and samples the perceptual ramps', () => {
    expect(rampColours('Blues', 5)).toEqual(['#eff3ff', '#bdd7e7', '#6baed6', '#3182bd', '#08519c'])
    expect(rampColours('Blues', 5, true)).toEqual(['#08519c', '#3182bd', '#6baed6', '#bdd7e7', '#eff3ff'])
    const viridis = rampColours('Viridis', 7)
    expect(viridis).toHaveLength(7)
    for (const c of viridis) expect(c).toMatch(HEX)
    expect(new Set(viridis).size).toBe(7)
    expect(rampColours('RdBu', 2)).toHaveLength(2)
    expect(qualitativeColours('Tableau10')).toHaveLength(10)
    expect(toHex('rgb(68, 1, 84)')).toBe('#440154')
  })
})

describe('classification', () => {
  const values = [1, 2, 2, 3, 4, 10, 11, 12, 30, 31, 32, 100]

  it('quantiles put about as many values in each class', () => {
    const breaks = classify(values, 'quantile', 4)
    expect(breaks[0]).toBe(1)
    expect(breaks.at(-1)).toBe(100)
    const counts = [0, 0, 0, 0]
    for (const v of values) counts[classOf(v, breaks)]!++
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1)
  })

  it('equal interval splits the range into equal widths', () => {
    expect(classify([0, 5, 100], 'equal-interval', 4)).toEqual([0, 25, 50, 75, 100])
  })

  it('natural breaks find the gaps in the data', () => {
    expect(classify(values, 'natural-breaks', 4)).toEqual([1, 10, 30, 100, 100])
    expect(classOf(100, [1, 10, 30, 100, 100])).toBe(3)
    expect(classOf(32, [1, 10, 30, 100, 100])).toBe(2)
  })

  it('never makes an empty class from ties, and copes with one value or none', () => {
    expect(classify([5, 5, 5, 7], 'quantile', 5)).toEqual([5, 7])
    expect(classify([3, 3], 'natural-breaks', 5)).toEqual([3, 3])
    expect(classify([], 'quantile', 5)).toEqual([])
    expect(classOf(null, [0, 1])).toBe(-1)
    expect(classOf(1, [0, 1, 2])).toBe(1)
    expect(classOf(2, [0, 1, 2])).toBe(1)
    expect(classOf(3, [0, 1, 2])).toBe(-1)
  })
})

describe('styles and their legends', () => {
  it('a graduated style has a class per colour, and the legend reads its ranges', () => {
    const start = singleStyle('#1d4ed8', 'point')
    const style = graduatedStyle(
      start,
      'point',
      { field: 'population', method: 'equal-interval', classes: 5, palette: 'YlOrRd', reversed: false },
      [0, '100', 200, 300, 400, 500, null, 'n/a'],
    )
    expect(style.symbol).toMatchObject({ kind: 'graduated', breaks: [0, 100, 200, 300, 400, 500] })
    const legend = legendOf(style, 'point', 'cities')
    expect(legend.map((l) => l.label)).toEqual([
      '0 – 100',
      '100 – 200',
      '200 – 300',
      '300 – 400',
      '400 – 500',
    ])
    expect(legend.map((l) => l.swatch.fill)).toEqual(rampColours('YlOrRd', 5))
  })

  it('a categorized style keeps the most frequent values and puts the rest in "Other"', () => {
    const values = ['b', 'a', 'a', 'c', 'c', 'c', 'd', null]
    expect(topCategories(values, 2)).toEqual(['a', 'c'])
    const style = categorizedStyle(singleStyle('#000000', 'polygon'), 'polygon', 'kind', 'Set2', values)
    const legend = legendOf(style, 'polygon', 'areas')
    expect(legend.map((l) => l.label)).toEqual(['a', 'b', 'c', 'd', 'Other'])
    expect(legend[0]!.swatch).toMatchObject({ shape: 'polygon', fill: qualitativeColours('Set2')[0] })
  })

  it('a heatmap’s legend is its ramp; a single symbol’s is the layer', () => {
    expect(legendOf(heatmapStyle(singleStyle('#000000', 'point')), 'point', 'x')[0]!.swatch.shape).toBe(
      'ramp',
    )
    expect(legendOf(singleStyle('#123456', 'line'), 'line', 'roads')).toEqual([
      { label: 'roads', swatch: { shape: 'line', stroke: '#123456', size: 2.5 } },
    ])
  })

  it('tells numeric fields from text ones', () => {
    expect(
      fieldsOf([
        { pop: 1, name: 'a', code: '12' },
        { pop: '2', name: 'b', code: null },
      ]),
    ).toEqual([
      { name: 'pop', numeric: true },
      { name: 'name', numeric: false },
      { name: 'code', numeric: true },
    ])
  })
})
