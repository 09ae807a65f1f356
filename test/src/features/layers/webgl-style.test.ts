import { describe, expect, it } from 'vitest'
import { webglPointStyle } from '../../../../src/features/layers/webgl-style'

const stroke = { stroke: '#ffffff', strokeWidth: 1, pointSize: 5, fillOpacity: 1 }

describe('the WebGL points style of a layer style', () => {
  it('draws a single style in its colour and size, with its outline', () => {
    expect(webglPointStyle({ symbol: { kind: 'single', fill: '#c026d3', ...stroke }, labels: null })).toEqual(
      {
        'circle-radius': 5,
        'circle-fill-color': [192, 38, 211, 1],
        'circle-stroke-color': [255, 255, 255, 1],
        'circle-stroke-width': 1,
      },
    )
  })

  it('matches categories by value, other values in "other"; classes by their breaks', () => {
    const categorized = webglPointStyle({
      symbol: {
        kind: 'categorized',
        field: 'kind',
        palette: 'Set2',
        categories: [{ value: 'a', colour: '#ff0000' }],
        other: '#000000',
        ...stroke,
      },
      labels: null,
    })
    expect(categorized?.['circle-fill-color']).toEqual([
      'match',
      ['get', 'kind'],
      'a',
      [255, 0, 0, 1],
      [0, 0, 0, 1],
    ])
    const graduated = webglPointStyle({
      symbol: {
        kind: 'graduated',
        field: 'n',
        method: 'quantile',
        classes: 2,
        palette: 'Blues',
        reversed: false,
        breaks: [0, 10, 20],
        colours: ['#0000ff', '#00ff00'],
        other: '#000000',
        ...stroke,
      },
      labels: null,
    })
    expect(graduated?.['circle-fill-color']).toEqual([
      'case',
      ['<', ['get', 'n'], 0],
      [0, 0, 0, 1],
      ['>', ['get', 'n'], 20],
      [0, 0, 0, 1],
      ['>=', ['get', 'n'], 10],
      [0, 255, 0, 1],
      [0, 0, 255, 1],
    ])
    expect(
      webglPointStyle({
        symbol: { kind: 'heatmap', radius: 8, blur: 12, weightField: null, palette: 'Blues' },
        labels: null,
      }),
    ).toBeNull()
  })
})
