import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROFILES } from '../../../../../electron/local-service/routing/data/profiles'
import {
  resolveRoutingDataDir,
  SAMPLE_NETWORK,
} from '../../../../../electron/local-service/routing/data/networks'
import { contract, UpwardSearch } from '../../../../../electron/local-service/routing/engine/ch'
import { dijkstra, forwardGraph } from '../../../../../electron/local-service/routing/engine/dijkstra'
import { sameEdge, seeds } from '../../../../../electron/local-service/routing/engine/matrix'
import { RoadNetwork } from '../../../../../electron/local-service/routing/engine/network'
import { RoutingEngine } from '../../../../../electron/local-service/routing/engine/routing-engine'

/** A deterministic generator (Park-Miller). */
function lcg(seed: number) {
  let s = seed
  return () => (s = (s * 16807) % 2147483647) / 2147483647
}

describe('contraction hierarchies', () => {
  it('give the same distances as Dijkstra on random directed graphs', () => {
    const random = lcg(7)
    for (let trial = 0; trial < 150; trial++) {
      const n = 5 + Math.floor(random() * 15)
      const tail: number[] = []
      const head: number[] = []
      const weight: number[] = []
      for (let k = 0; k < n * 2.5; k++) {
        const a = Math.floor(random() * n)
        const b = Math.floor(random() * n)
        tail.push(a)
        head.push(b)
        weight.push(Math.floor(random() * 10))
      }
      const m = tail.length
      const arcs = {
        tail: Int32Array.from(tail),
        head: Int32Array.from(head),
        weight: Int32Array.from(weight),
      }
      const ch = contract(n, {
        ...arcs,
        dur: new Int32Array(m),
        dist: new Int32Array(m),
        edge: new Int32Array(m),
      })
      const start = new Int32Array(n + 1)
      for (const t of tail) start[t + 1]!++
      for (let i = 0; i < n; i++) start[i + 1]! += start[i]!
      const fill = start.slice()
      const g = { start, head: new Int32Array(m), edge: new Int32Array(m), w: new Int32Array(m) }
      for (let i = 0; i < m; i++) {
        const k = fill[tail[i]!]!++
        g.head[k] = head[i]!
        g.w[k] = weight[i]!
      }
      const fwd = new UpwardSearch(ch, true)
      const bwd = new UpwardSearch(ch, false)
      for (let s = 0; s < n; s++) {
        const expected = dijkstra(g, n, [{ node: s, w: 0, dur: 0, dist: 0 }])
        fwd.run([{ node: s, w: 0, dur: 0, dist: 0 }])
        const up = Float64Array.from(fwd.w)
        for (let t = 0; t < n; t++) {
          bwd.run([{ node: t, w: 0, dur: 0, dist: 0 }])
          let best = Infinity
          for (const x of bwd.settled) best = Math.min(best, up[x]! + bwd.w[x]!)
          expect(best, `trial ${trial} ${s}→${t}`).toBe(expected[t])
        }
      }
    }
  })
})

describe('matrices on the Gothenburg sample', () => {
  const file = path.join(resolveRoutingDataDir()!, SAMPLE_NETWORK.file)
  const network = RoadNetwork.load(file)

  // Walking's hierarchy is the slowest to build; one of its two metrics is enough here.
  const cases = PROFILES.flatMap((p) => ([0, 1] as const).map((r) => [p, r] as const)).filter(
    ([p, r]) => p !== 'walking' || r === 1,
  )
  it.each(cases)(
    '%s rtype %i: every cell equals plain Dijkstra from the snapped positions',
    async (profile, rtype) => {
      const engine = new RoutingEngine()
      const random = lcg(rtype * 10 + PROFILES.indexOf(profile) + 1)
      const [w, s, e, n] = network.header.bbox
      const positions: Array<[number, number]> = Array.from({ length: 25 }, () => [
        w + (e - w) * random(),
        s + (n - s) * random(),
      ])
      // Two positions on one edge, both ways round, exercise travel along a single edge.
      positions.push([11.9668, 57.7072], [11.9671, 57.7073])
      const all = positions.map((_, i) => i)
      const out = await engine.matrix({
        kind: 'matrix',
        networks: [{ id: SAMPLE_NETWORK.id, file }],
        profile,
        rtype,
        traffic: { kind: 'free' },
        positions,
        sources: all,
        destinations: all,
        includeWeights: true,
      })
      const metric = network.metric({ profile, rtype })
      const graph = forwardGraph(metric)
      const snaps = positions.map(([lon, lat]) => network.snap(lon, lat, metric))
      expect(snaps.filter(Boolean).length).toBeGreaterThan(15)
      for (let i = 0; i < positions.length; i++) {
        const from = snaps[i]
        if (!from) {
          expect(out.weights![i]!.every((c) => c === null)).toBe(true)
          continue
        }
        const dist = dijkstra(graph, network.nodeCount, seeds(metric, from, true))
        for (let j = 0; j < positions.length; j++) {
          const to = snaps[j]
          if (!to) continue
          let best = Infinity
          for (const seed of seeds(metric, to, false)) best = Math.min(best, dist[seed.node]! + seed.w)
          const direct = sameEdge(metric, from, to)
          if (direct) best = Math.min(best, direct.w)
          expect(out.weights![i]![j], `${i}→${j}`).toBe(best === Infinity ? null : best)
        }
      }
    },
    120_000,
  )
})
