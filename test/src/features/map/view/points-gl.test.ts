import { fromLonLat } from 'ol/proj'
import { describe, expect, it } from 'vitest'
import { rgbOf } from '../../../../../src/kit/palette'
import {
  clipMatrix,
  followTransform,
  packPositions,
  pointColours,
  thinCell,
  thinPoints,
} from '../../../../../src/features/map/view/points-gl'

const look = { stroke: '#ffffff', strokeWidth: 1, pointSize: 5, fillOpacity: 1 }

/** A position relative to the origin through the column-major 3×3 matrix. */
function apply(m: Float32Array, x: number, y: number): [number, number] {
  return [m[0]! * x + m[3]! * y + m[6]!, m[1]! * x + m[4]! * y + m[7]!]
}

describe('the points packed for the GPU', () => {
  it('are the Web Mercator positions OpenLayers uses, relative to the first point kept', () => {
    const lonLat = new Float64Array([77.2, 28.6, 72.87, 19.07, 88.36, 22.57])
    const packed = packPositions(lonLat, () => true)
    expect(packed.count).toBe(3)
    const first = fromLonLat([77.2, 28.6])
    expect(packed.origin[0]).toBeCloseTo(first[0]!, 6)
    expect(packed.origin[1]).toBeCloseTo(first[1]!, 6)
    for (let i = 0; i < 3; i++) {
      const expected = fromLonLat([lonLat[2 * i]!, lonLat[2 * i + 1]!])
      // Float32 relative to the origin: well under a metre across a country.
      expect(Math.abs(packed.positions[2 * i]! + packed.origin[0] - expected[0]!)).toBeLessThan(0.5)
      expect(Math.abs(packed.positions[2 * i + 1]! + packed.origin[1] - expected[1]!)).toBeLessThan(0.5)
    }
    expect([...packed.indices]).toEqual([0, 1, 2])
  })

  it('skip rows without a point and rows the filter hides, and say which rows they are', () => {
    const lonLat = new Float64Array([NaN, NaN, 10, 20, 11, 21, 12, 22])
    const packed = packPositions(lonLat, (i) => i !== 2)
    expect(packed.count).toBe(2)
    expect([...packed.indices]).toEqual([1, 3])
    expect(packed.positions).toHaveLength(4)
    const second = fromLonLat([12, 22])
    expect(packed.positions[2]! + packed.origin[0]).toBeCloseTo(second[0]!, 0)
  })

  it('clamp latitudes to Web Mercator’s range as OpenLayers does, and pack nothing from nothing', () => {
    const pole = packPositions(new Float64Array([0, 90]), () => true)
    expect(Number.isFinite(pole.origin[1])).toBe(true)
    expect(pole.origin[1]).toBeCloseTo(fromLonLat([0, 85.0511287798])[1]!, 3)
    const none = packPositions(new Float64Array(0), () => true)
    expect(none.count).toBe(0)
    expect(none.origin).toEqual([0, 0])
  })
})

describe('the colour of each point', () => {
  it('reads hex colours, short and long', () => {
    expect(rgbOf('#c026d3')).toEqual([192, 38, 211])
    expect(rgbOf('#fff')).toEqual([255, 255, 255])
  })

  it('is one colour for the whole layer with a single symbol (none per point)', () => {
    expect(
      pointColours({ kind: 'single', fill: '#c026d3', ...look }, new Uint32Array([0, 1]), () => 'x'),
    ).toBe(null)
  })

  it('follows categories by value, other values and missing ones in "other"', () => {
    const values = ['a', 'b', undefined]
    const colours = pointColours(
      {
        kind: 'categorized',
        field: 'kind',
        palette: 'Set2',
        categories: [{ value: 'a', colour: '#ff0000' }],
        other: '#000000',
        ...look,
      },
      new Uint32Array([2, 0, 1]),
      (row) => values[row],
    )
    expect([...colours!]).toEqual([0, 0, 0, 255, 255, 0, 0, 255, 0, 0, 0, 255])
  })

  it('follows graduated classes by their breaks, outside them "other"', () => {
    const values = ['5', '15', '20', '25', 'n/a']
    const colours = pointColours(
      {
        kind: 'graduated',
        field: 'n',
        method: 'quantile',
        classes: 2,
        palette: 'Blues',
        reversed: false,
        breaks: [0, 10, 20],
        colours: ['#0000ff', '#00ff00'],
        other: '#808080',
        ...look,
      },
      new Uint32Array([0, 1, 2, 3, 4]),
      (row) => values[row],
    )
    const rgb = (i: number) => [...colours!.subarray(4 * i, 4 * i + 3)]
    expect(rgb(0)).toEqual([0, 0, 255])
    expect(rgb(1)).toEqual([0, 255, 0])
    // The last break closes the last class.
    expect(rgb(2)).toEqual([0, 255, 0])
    expect(rgb(3)).toEqual([128, 128, 128])
    expect(rgb(4)).toEqual([128, 128, 128])
  })
})

describe('the matrix from the map to the screen', () => {
  // A view centred at (cx, cy) with `res` metres a pixel on a w × h map, as OpenLayers' frame gives it.
  const [cx, cy, res, w, h] = [8_600_000, 2_500_000, 1_000, 800, 600]
  const toPixel = [1 / res, 0, 0, -1 / res, -cx / res + w / 2, cy / res + h / 2]

  it('puts the view’s centre in the middle and its corners at the clip corners', () => {
    const origin: [number, number] = [8_000_000, 2_000_000]
    const m = clipMatrix(toPixel, origin, [w, h])
    const centre = apply(m, cx - origin[0], cy - origin[1])
    expect(centre[0]).toBeCloseTo(0, 5)
    expect(centre[1]).toBeCloseTo(0, 5)
    // Top left of the map: x west of the centre, y north of it; clip y runs up.
    const topLeft = apply(m, cx - (w / 2) * res - origin[0], cy + (h / 2) * res - origin[1])
    expect(topLeft[0]).toBeCloseTo(-1, 5)
    expect(topLeft[1]).toBeCloseTo(1, 5)
  })

  it('turns with a rotated view as its pixels do', () => {
    // A quarter turn: map x runs down the screen.
    const turned = [0, 1 / res, 1 / res, 0, w / 2, h / 2]
    const m = clipMatrix(turned, [0, 0], [w, h])
    const p = apply(m, 100 * res, 0)
    expect(p[0]).toBeCloseTo(0, 5)
    expect(p[1]).toBeCloseTo(-(100 * 2) / h, 5)
  })
})

describe('the points a crowded frame draws', () => {
  // One map unit a pixel, the origin in the top left corner of a 100 × 50 map.
  const [w, h] = [100, 50]
  const m = clipMatrix([1, 0, 0, -1, 0, 0], [0, 0], [w, h])
  const at = (...xy: number[]) => new Float32Array(xy.map((v, i) => (i % 2 ? -v : v)))

  it('leave out a point under a later one in the same square, in drawing order', () => {
    // Pixels (10.2, 10.2), (30, 5), (10.9, 10.9) — the third covers the first — and (31, 6) in another square.
    const kept = thinPoints(at(10.2, 10.2, 30, 5, 10.9, 10.9, 32.5, 6), m, w, h, 2)
    expect([...kept]).toEqual([1, 2, 3])
  })

  it('keep every point when none share a square', () => {
    const kept = thinPoints(at(1, 1, 5, 5, 9, 9, 99, 49), m, w, h, 2)
    expect([...kept]).toEqual([0, 1, 2, 3])
  })

  it('keep points up to a view’s width and height outside the view, not further', () => {
    // Left of the view by 60 px, below it by 40 px (kept); right of it by 150 px, above it by 80 px (not).
    const kept = thinPoints(at(-60, 10, 50, 90, 250, 10, 50, -80), m, w, h, 2)
    expect([...kept]).toEqual([0, 1])
  })

  it('bound what a million points in one view cost to the view’s squares', () => {
    const n = 1_000_000
    const positions = new Float32Array(2 * n)
    for (let i = 0; i < n; i++) {
      positions[2 * i] = ((i * 7919) % 10_007) / 100.07
      positions[2 * i + 1] = -((i * 104_729) % 10_009) / 200.18
    }
    const kept = thinPoints(positions, m, w, h, 2)
    expect(kept.length).toBeLessThanOrEqual((w / 2) * (h / 2))
    expect(kept.length).toBeGreaterThan(0.9 * (w / 2) * (h / 2))
  })
})

describe('the last drawing following the map while it moves', () => {
  /** A point of the canvas through a CSS `matrix(...)` about its top-left corner. */
  function through(css: string, [x, y]: [number, number]): [number, number] {
    const [a, b, c, d, e, f] = /^matrix\((.*)\)$/.exec(css)![1]!.split(', ').map(Number) as number[]
    return [a! * x + c! * y + e!, b! * x + d! * y + f!]
  }
  /** OpenLayers' coordinate-to-pixel transform for a view: centre, resolution, rotation, size. */
  function toPixel(cx: number, cy: number, resolution: number, rotation: number, [w, h]: number[]): number[] {
    const cos = Math.cos(-rotation) / resolution
    const sin = Math.sin(-rotation) / resolution
    // px = w/2 + (cos·(x−cx) − sin·(y−cy)), py = h/2 − (sin·(x−cx) + cos·(y−cy))
    return [cos, -sin, -sin, -cos, w! / 2 - cos * cx + sin * cy, h! / 2 + sin * cx + cos * cy]
  }
  const applyTo = (t: number[], [x, y]: [number, number]): [number, number] => [
    t[0]! * x + t[2]! * y + t[4]!,
    t[1]! * x + t[3]! * y + t[5]!,
  ]

  it('is a plain shift for a pan, and nothing for no move', () => {
    const then = toPixel(8_000_000, 2_500_000, 2000, 0, [1400, 900])
    const now = toPixel(8_000_000 - 30 * 2000, 2_500_000 - 20 * 2000, 2000, 0, [1400, 900])
    expect(followTransform(then, now)).toBe('matrix(1, 0, 0, 1, 30, -20)')
    expect(followTransform(then, then)).toBe('matrix(1, 0, 0, 1, 0, 0)')
  })

  it('puts every point drawn then where the view now shows it, zoomed and rotated', () => {
    const then = toPixel(8_000_000, 2_500_000, 2000, 0.3, [1400, 900])
    const now = toPixel(8_100_000, 2_450_000, 750, -0.2, [1400, 900])
    const css = followTransform(then, now)
    for (const coordinate of [
      [8_000_000, 2_500_000],
      [7_500_000, 3_000_000],
      [9_000_000, 1_000_000],
    ] as Array<[number, number]>) {
      const [x, y] = through(css, applyTo(then, coordinate))
      const [ex, ey] = applyTo(now, coordinate)
      expect(x).toBeCloseTo(ex, 2)
      expect(y).toBeCloseTo(ey, 2)
    }
  })
})

describe('the square in which only the last point is drawn', () => {
  it('is a third of the circle with its outline, at least 2 CSS pixels', () => {
    // The results' look: radius 5, outline 1 → 12 px wide → 4 px squares; at a device pixel ratio of 2, 8.
    expect(thinCell(6, 1)).toBe(4)
    expect(thinCell(12, 2)).toBe(8)
    // Small circles keep 2 CSS pixel squares.
    expect(thinCell(2, 1)).toBe(2)
    expect(thinCell(3, 2)).toBe(4)
  })
})
