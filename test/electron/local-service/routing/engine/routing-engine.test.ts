import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { importNetwork } from '../../../../../electron/local-service/routing/data/import-network'
import {
  resolveRoutingDataDir,
  SAMPLE_NETWORK,
} from '../../../../../electron/local-service/routing/data/networks'
import type { MatrixJob, NetworkRef } from '../../../../../electron/local-service/routing/engine/jobs'
import { RoutingEngine } from '../../../../../electron/local-service/routing/engine/routing-engine'
import { TOWN_NODES, townNode, writeTown } from '../../../../support/road-town'
import { useTempDirs } from '../../../../support/temp-dir'

const sample: NetworkRef = {
  id: SAMPLE_NETWORK.id,
  file: path.join(resolveRoutingDataDir()!, SAMPLE_NETWORK.file),
}

describe('routing engine on a small town', () => {
  const tempDir = useTempDirs()
  let town: NetworkRef

  beforeAll(async () => {
    const { mkdtempSync } = await import('node:fs')
    const os = await import('node:os')
    const dir = mkdtempSync(path.join(os.tmpdir(), 'geo-town-'))
    const files = await writeTown(dir)
    const file = path.join(dir, 'town.roadnet')
    await importNetwork({
      file: files.pbf,
      outFile: file,
      meta: { id: 'town', name: 'Town', attribution: 't', source: 't' },
    })
    town = { id: 'town', file }
  })

  const matrix = (engine: RoutingEngine, over: Partial<MatrixJob>) =>
    engine.matrix({
      kind: 'matrix',
      networks: [sample, town],
      profile: 'driving',
      rtype: 0,
      traffic: { kind: 'free' },
      positions: [],
      sources: [0],
      destinations: [0],
      ...over,
    })

  it('follows oneways: the primary road eastward only, the oneway=-1 row westward only', async () => {
    const engine = new RoutingEngine()
    const r = await matrix(engine, {
      positions: [townNode(1), townNode(8), townNode(9), townNode(12)],
      sources: [0, 1, 2, 3],
      destinations: [0, 1, 2, 3],
    })
    expect(r.network).toBe('town')
    expect(r.code).toBe('Ok')
    const d = r.durations
    // 1→8: up the residential column (222.6 m at 20 km/h) and east on the primary (586.5 m at maxspeed 30).
    expect(d[0]![1]).toBeCloseTo(40.1 + 70.4, 0)
    // 8→1 cannot take the primary westward: back along the south road, 809 m at 20 km/h.
    expect(d[1]![0]).toBeCloseTo(145.6, 0)
    // 12→9 may use the oneway=-1 row; 9→12 has to go round by the primary.
    expect(r.distances[3]![2]).toBeCloseTo(585.6, 0)
    expect(r.distances[2]![3]!).toBeGreaterThan(1000)
    expect(d[0]![0]).toBe(0)
  })

  it('lets walking ignore oneways and use footways; least distance differs from least time', async () => {
    const engine = new RoutingEngine()
    const walk = await matrix(engine, {
      profile: 'walking',
      positions: [townNode(9), townNode(12), townNode(2), townNode(10)],
      sources: [0, 2],
      destinations: [1, 3],
    })
    expect(walk.distances[0]![0]).toBeCloseTo(585.6, 0)
    // 2→10 straight up the footway: 445 m at 5 km/h.
    expect(walk.distances[1]![1]).toBeCloseTo(445.2, 0)
    expect(walk.durations[1]![1]).toBeCloseTo(445.2 / (5 / 3.6), 0)
  })

  it('gives null cells for a position beyond the snap limit, and NoRoute when no pair has a route', async () => {
    const engine = new RoutingEngine()
    const far: [number, number] = [77.5, 28.9]
    const r = await matrix(engine, {
      positions: [townNode(1), far, townNode(4)],
      sources: [0, 1],
      destinations: [0, 1, 2],
    })
    expect(r.snapped[1]).toBeNull()
    expect(r.distances).toEqual([
      [0, null, expect.any(Number)],
      [null, null, null],
    ])
    expect(r.code).toBe('Ok')
    const none = await matrix(engine, { positions: [far, [77.6, 29]], sources: [0], destinations: [1] })
    expect(none.code).toBe('NoRoute')
    expect(none.network).toBeNull()
  })

  it('snaps onto the nearest edge (not a node) of the roads the profile may use', async () => {
    const engine = new RoutingEngine()
    // 30 m north of the middle of the south road (between nodes 1 and 2).
    const mid: [number, number] = [77.201, 28.60027]
    const r = await matrix(engine, { positions: [mid, townNode(2)], sources: [0], destinations: [1] })
    expect(r.snapped[0]!.lat).toBeCloseTo(28.6, 6)
    expect(r.snapped[0]!.lon).toBeCloseTo(77.201, 6)
    expect(r.snapped[0]!.distance).toBeCloseTo(30, 0)
    expect(r.distances[0]![0]).toBeCloseTo(195.5 / 2, 0)
    // Beside the private service road: least time may use it (penalized), least distance snaps elsewhere.
    const bySide: [number, number] = [77.20405, 28.6011]
    const t = await matrix(engine, { positions: [bySide, townNode(3)], rtype: 0 })
    const s = await matrix(engine, { positions: [bySide, townNode(3)], rtype: 1 })
    expect(t.snapped[0]!.lon).toBeCloseTo(77.204, 6)
    expect(s.snapped[0]!.lon).not.toBeCloseTo(77.204, 4)
  })

  it('routes with a geometry from snapped point to snapped point and per-step classes and speeds', async () => {
    const engine = new RoutingEngine()
    const out = await engine.route({
      kind: 'route',
      networks: [town],
      profile: 'driving',
      from: [77.201, 28.6001],
      to: townNode(8),
    })
    const route = out.route!
    expect(route.geometry[0]![0]).toBeCloseTo(77.201, 6)
    expect(route.geometry.at(-1)).toEqual(townNode(8))
    expect(route.steps.map((s) => s.cls)).toEqual([
      'residential',
      'residential',
      'primary',
      'primary',
      'primary',
    ])
    expect(route.steps.at(-1)!.speedKmh).toBe(30)
    expect(route.distance).toBeCloseTo(
      route.steps.reduce((s, x) => s + x.distance, 0),
      0,
    )
    const m = await matrix(engine, {
      positions: [[77.201, 28.6001], townNode(8)],
      sources: [0],
      destinations: [1],
    })
    expect(route.duration).toBeCloseTo(m.durations[0]![0]!, 0)
  })

  it('answers predictive durations from the hourly model: free at night, longer at the evening peak', async () => {
    const engine = new RoutingEngine()
    // Monday 2024-01-01 03:00 and 18:00 in Kolkata.
    const night = Date.UTC(2023, 11, 31, 21, 30) / 1000
    const peak = Date.UTC(2024, 0, 1, 12, 30) / 1000
    const out = engine.predictive({
      kind: 'predictive',
      networks: [town],
      positions: [townNode(1), townNode(8)],
      departures: [night, peak],
    })
    expect(out.model).toBe(true)
    expect(out.timeZone).toBe('Asia/Kolkata')
    const [a, b] = out.results
    const free = await matrix(engine, {
      networks: [town],
      positions: [townNode(1), townNode(8)],
      destinations: [1],
    })
    expect(a!.duration).toBeCloseTo(free.durations[0]![0]!, 0)
    expect(b!.duration!).toBeGreaterThan(a!.duration! * 1.5)
    // Vias: 1 → 12 → 8 is longer than 1 → 8.
    const via = engine.predictive({
      kind: 'predictive',
      networks: [town],
      positions: [townNode(1), townNode(12), townNode(8)],
      departures: [night],
    })
    expect(via.results[0]!.distance!).toBeGreaterThan(a!.distance!)
  })

  it('gives seeded random points on routable roads and the network bounds', () => {
    const engine = new RoutingEngine()
    const a = engine.randomPoints({
      kind: 'randomPoints',
      network: town,
      profile: 'driving',
      count: 20,
      seed: 7,
    })
    const b = engine.randomPoints({
      kind: 'randomPoints',
      network: town,
      profile: 'driving',
      count: 20,
      seed: 7,
    })
    expect(a.points).toEqual(b.points)
    const info = engine.info({ kind: 'info', network: town })
    for (const [lon, lat] of a.points) {
      expect(lon).toBeGreaterThanOrEqual(info.bbox[0])
      expect(lat).toBeLessThanOrEqual(info.bbox[3])
    }
    expect(info.bbox).toEqual([77.2, 28.6, 77.206, 28.604])
    void TOWN_NODES
    void tempDir
  })
})
