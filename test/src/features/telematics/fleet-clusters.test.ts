import { describe, expect, it } from 'vitest'
import type { ArrowData } from '../../../../src/features/telematics/arrows-layer'
import { clusterDevices } from '../../../../src/features/telematics/fleet-clusters'

function devices(points: Array<[id: number, x: number, y: number, status: number]>): ArrowData {
  return {
    ids: Int32Array.from(points.map((p) => p[0])),
    xy: Float64Array.from(points.flatMap((p) => [p[1], p[2]])),
    status: Int16Array.from(points.map((p) => p[3])),
    heading: new Float32Array(points.length),
  }
}

describe('clustering the fleet for the zoomed-out map', () => {
  it('groups devices within the distance of the first untaken one, drawn at their mean, coloured by the commonest status', () => {
    const clusters = clusterDevices(
      devices([
        [1, 0, 0, 2],
        [2, 30, 10, 1],
        [3, -35, -20, 1],
        [4, 500, 500, 8],
        // Within 40 of device 2 but not of device 1, the first: a cluster of its own, as OpenLayers groups.
        [5, 65, 0, 9],
      ]),
      40,
    )
    expect(clusters).toEqual([
      { x: -5 / 3, y: -10 / 3, ids: [1, 2, 3], status: 1 },
      { x: 500, y: 500, ids: [4], status: 8 },
      { x: 65, y: 0, ids: [5], status: 9 },
    ])
  })

  it('finds neighbours across grid cells and on negative coordinates, and takes every device once', () => {
    const points: Array<[number, number, number, number]> = []
    for (let i = 0; i < 400; i++)
      points.push([i + 1, ((i * 7919) % 2000) - 1000, ((i * 104729) % 2000) - 1000, 1])
    const clusters = clusterDevices(devices(points), 97)
    const all = clusters.flatMap((c) => c.ids).sort((a, b) => a - b)
    expect(all).toEqual(points.map((p) => p[0]))
    for (const c of clusters) {
      const first = points[c.ids[0]! - 1]!
      for (const id of c.ids) {
        const p = points[id - 1]!
        expect(Math.abs(p[1] - first[1])).toBeLessThanOrEqual(97)
        expect(Math.abs(p[2] - first[2])).toBeLessThanOrEqual(97)
      }
    }
    // A pair straddling a cell border (x = 96.9 and 97.1 with cells 97 wide) is one cluster.
    expect(
      clusterDevices(
        devices([
          [1, 96.9, 0, 1],
          [2, 97.1, 0, 1],
        ]),
        97,
      ),
    ).toHaveLength(1)
    expect(clusterDevices(devices([]), 97)).toEqual([])
  })
})
