import { describe, expect, it } from 'vitest'
import { legendBlocks, niceScale, pageSize } from '../../../../../src/features/map/export/export-layout'

describe('export layout', () => {
  it('sizes a page in CSS pixels and in image pixels at the DPI', () => {
    expect(pageSize({ paper: 'A4', orientation: 'landscape', dpi: 96 }, [1, 1])).toMatchObject({
      css: [1123, 794],
      pixels: [1123, 794],
      ratio: 1,
    })
    expect(pageSize({ paper: 'A4', orientation: 'portrait', dpi: 300 }, [1, 1]).pixels).toEqual([2481, 3509])
    expect(pageSize({ paper: 'screen', orientation: 'portrait', dpi: 192 }, [800, 600])).toMatchObject({
      css: [800, 600],
      pixels: [1600, 1200],
    })
  })

  it('picks a round scale bar length that fits', () => {
    expect(niceScale(1000, 160)).toEqual({ metres: 100_000, px: 100, label: '100 km' })
    expect(niceScale(3, 160)).toMatchObject({ metres: 200, label: '200 m' })
    expect(niceScale(0.5, 160).px).toBeLessThanOrEqual(160)
  })

  it('lists visible layers’ legends, a single symbol under the layer’s own name', () => {
    const point = { shape: 'point' as const, fill: '#000000' }
    const blocks = legendBlocks([
      { title: 'Cities', visible: true, legend: [{ label: 'Cities', swatch: point }] },
      { title: 'Hidden', visible: false, legend: [{ label: 'x', swatch: point }] },
      {
        title: 'Population',
        visible: true,
        legend: [
          { label: '0 – 10', swatch: point },
          { label: '10 – 20', swatch: point },
        ],
      },
      { title: 'Basemap', visible: true, legend: [] },
    ])
    expect(blocks).toEqual([
      { title: '', items: [{ label: 'Cities', swatch: point }] },
      {
        title: 'Population',
        items: [
          { label: '0 – 10', swatch: point },
          { label: '10 – 20', swatch: point },
        ],
      },
    ])
  })
})
