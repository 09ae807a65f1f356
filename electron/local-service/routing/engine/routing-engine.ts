import { statSync } from 'node:fs'
import {
  defaultSpeedModel,
  hourFactors,
  hourOfWeek,
  typicalFactors,
  utcOffsetSeconds,
  type SpeedModel,
} from '../data/speed-model'
import type { ContractionHierarchy } from './ch'
import { hierarchyFile, readHierarchy, writeHierarchy } from './hierarchy-cache'
import type {
  InfoJob,
  InfoOutcome,
  LonLat,
  MatrixJob,
  MatrixOutcome,
  NetworkRef,
  OutcomeOf,
  PredictiveJob,
  PredictiveOutcome,
  RandomPointsJob,
  RandomPointsOutcome,
  RouteJob,
  RouteOutcome,
  RoutingJob,
  SnapJob,
  SnappedPosition,
  SnapOutcome,
  TrafficSpec,
} from './jobs'
import { MatrixSearch, sameEdge, seeds } from './matrix'
import { metricKey, RoadNetwork, type Metric, type MetricSpec, type Snap } from './network'
import { seededRandom } from './numeric'
import { routeBetween } from './route'
import { TimeDependentRouter } from './td-route'

export interface EngineOptions {
  /** Networks kept loaded at most (least recently used ones go first). */
  maxNetworks?: number
  /** Metrics (with their hierarchies) kept per network at most. */
  maxMetrics?: number
}

interface Loaded {
  network: RoadNetwork
  stamp: string
  loadMs: number
  searches: Map<string, MatrixSearch>
}

const round1 = (x: number) => Math.round(x) / 10

/** A short stable hash of a speed model's factors, so cached metrics and hierarchies name the model. */
function modelHash(model: SpeedModel): string {
  let h = 0x811c9dc5
  for (const row of model.factors)
    for (const f of row) {
      h ^= Math.round(f * 1000)
      h = Math.imul(h, 0x01000193)
    }
  return (h >>> 0).toString(36)
}

/**
 * The routing engine: loads networks by reference, keeps them and their metrics in bounded caches, and
 * answers the serializable jobs of `jobs.ts`. One engine per worker thread.
 */
export class RoutingEngine {
  private readonly loaded = new Map<string, Loaded>()
  private readonly maxNetworks: number
  private readonly maxMetrics: number

  constructor(options: EngineOptions = {}) {
    this.maxNetworks = options.maxNetworks ?? 3
    this.maxMetrics = options.maxMetrics ?? 12
  }

  async run<J extends RoutingJob>(job: J): Promise<OutcomeOf<J>> {
    switch (job.kind) {
      case 'matrix':
        return (await this.matrix(job)) as OutcomeOf<J>
      case 'predictive':
        return this.predictive(job) as OutcomeOf<J>
      case 'route':
        return (await this.route(job)) as OutcomeOf<J>
      case 'snap':
        return this.snap(job) as OutcomeOf<J>
      case 'randomPoints':
        return this.randomPoints(job) as OutcomeOf<J>
      case 'info':
        return this.info(job) as OutcomeOf<J>
    }
  }

  /** The loaded network of a reference (loaded on first use, reloaded when its file changed). */
  load(ref: NetworkRef): Loaded {
    const stat = statSync(ref.file)
    const stamp = `${stat.size}:${stat.mtimeMs}`
    const cached = this.loaded.get(ref.id)
    if (cached && cached.stamp === stamp) {
      this.loaded.delete(ref.id)
      this.loaded.set(ref.id, cached)
      return cached
    }
    const started = performance.now()
    const network = RoadNetwork.load(ref.file)
    const entry: Loaded = { network, stamp, loadMs: performance.now() - started, searches: new Map() }
    this.loaded.delete(ref.id)
    this.loaded.set(ref.id, entry)
    while (this.loaded.size > this.maxNetworks) this.loaded.delete(this.loaded.keys().next().value!)
    return entry
  }

  /** The metric of a network, most recently used metrics kept. */
  private metric(entry: Loaded, spec: MetricSpec): Metric {
    const metric = entry.network.metric(spec)
    const keys = entry.network.metricKeys
    if (keys.length > this.maxMetrics) {
      const keep = new Set(keys.slice(-this.maxMetrics))
      entry.network.dropMetrics((k) => keep.has(k))
      for (const k of [...entry.searches.keys()]) if (!keep.has(k)) entry.searches.delete(k)
    }
    return metric
  }

  /** The hierarchy of a metric: in memory, else from the cache folder, else contracted (and cached). */
  async hierarchy(
    entry: Loaded,
    metric: Metric,
    key: string,
    cacheDir: string | undefined,
  ): Promise<{ ch: ContractionHierarchy; ms: number }> {
    if (metric.hasHierarchy) return { ch: metric.ch(), ms: 0 }
    const started = performance.now()
    const net = entry.network
    const fingerprint = `${net.header.built}-${net.edgeCount}`.replace(/[^0-9A-Za-z]/g, '')
    const file = cacheDir ? hierarchyFile(cacheDir, net.id, fingerprint, key) : undefined
    const stored = file ? readHierarchy(file, net.nodeCount) : undefined
    if (stored) {
      metric.useHierarchy(stored)
      return { ch: stored, ms: performance.now() - started }
    }
    const ch = metric.ch()
    if (file) await writeHierarchy(file, ch).catch(() => undefined)
    return { ch, ms: performance.now() - started }
  }

  private metricSpec(
    job: { profile: MetricSpec['profile']; rtype: 0 | 1; traffic: TrafficSpec; speedModel?: SpeedModel },
    timeZone: string,
  ): MetricSpec {
    if (job.traffic.kind === 'free') return { profile: job.profile, rtype: job.rtype }
    const model = job.speedModel ?? defaultSpeedModel()
    const hash = modelHash(model)
    if (job.traffic.kind === 'typical')
      return {
        profile: job.profile,
        rtype: job.rtype,
        factors: typicalFactors(model),
        factorKey: `typical-${hash}`,
      }
    const how = hourOfWeek(job.traffic.time, timeZone)
    return {
      profile: job.profile,
      rtype: job.rtype,
      factors: hourFactors(model, how),
      factorKey: `how${how}-${hash}`,
    }
  }

  /**
   * The network for a request: the chosen one, else the candidate that places most positions (the first
   * in order on a tie). Returns the snaps on it, null for positions it cannot place.
   */
  private choose(
    networks: NetworkRef[],
    chosen: string | undefined,
    positions: ReadonlyArray<LonLat | null>,
    specOf: (timeZone: string) => MetricSpec,
  ): { entry: Loaded; metric: Metric; spec: MetricSpec; snaps: Array<Snap | null> } | undefined {
    const candidates = chosen ? networks.filter((n) => n.id === chosen) : networks
    let best:
      | { entry: Loaded; metric: Metric; spec: MetricSpec; snaps: Array<Snap | null>; count: number }
      | undefined
    for (const ref of candidates) {
      if (!chosen && ref.bbox && !positions.some((p) => p && coversBox(ref.bbox!, p))) continue
      const entry = this.load(ref)
      if (!chosen && !positions.some((p) => p && entry.network.covers(p[0], p[1]))) continue
      const spec = specOf(entry.network.header.timeZone)
      const metric = this.metric(entry, spec)
      const snaps = positions.map((p) => (p ? entry.network.snap(p[0], p[1], metric) : null))
      const count = snaps.filter(Boolean).length
      if (!best || count > best.count) best = { entry, metric, spec, snaps, count }
    }
    return best
  }

  async matrix(job: MatrixJob): Promise<MatrixOutcome> {
    const t0 = performance.now()
    const rows = job.sources.length
    const cols = job.destinations.length
    const empty = () => Array.from({ length: rows }, () => new Array<number | null>(cols).fill(null))
    const chosen = this.choose(job.networks, job.network, job.positions, (tz) => this.metricSpec(job, tz))
    if (!chosen) {
      return {
        kind: 'matrix',
        network: null,
        code: 'NoRoute',
        distances: empty(),
        durations: empty(),
        ...(job.includeWeights ? { weights: empty() } : {}),
        snapped: job.positions.map(() => null),
        timing: { snap: performance.now() - t0, prepare: 0, search: 0 },
      }
    }
    const { entry, metric, spec, snaps } = chosen
    const t1 = performance.now()
    const key = metricKey(spec)
    const { ch, ms } = await this.hierarchy(entry, metric, key, job.cacheDir)
    let search = entry.searches.get(key)
    if (!search || search.ch !== ch) {
      search = new MatrixSearch(ch)
      entry.searches.set(key, search)
    }
    const t2 = performance.now()
    const srcSeeds = job.sources.map((i) => (snaps[i] ? seeds(metric, snaps[i]!, true) : null))
    const dstSeeds = job.destinations.map((j) => (snaps[j] ? seeds(metric, snaps[j]!, false) : null))
    const cells = search.run(srcSeeds, dstSeeds)
    const distances = empty()
    const durations = empty()
    const weights = job.includeWeights ? empty() : undefined
    let any = false
    for (let r = 0; r < rows; r++) {
      const from = snaps[job.sources[r]!]
      for (let c = 0; c < cols; c++) {
        const to = snaps[job.destinations[c]!]
        if (!from || !to) continue
        const k = r * cols + c
        let w = cells.weight[k]!
        let dur = cells.dur[k]!
        let dist = cells.dist[k]!
        const direct = from.edge === to.edge ? sameEdge(metric, from, to) : undefined
        if (direct && (Number.isNaN(w) || direct.w <= w)) {
          w = direct.w
          dur = direct.dur
          dist = direct.dist
        }
        if (Number.isNaN(w)) continue
        any = true
        distances[r]![c] = round1(dist)
        durations[r]![c] = round1(dur)
        if (weights) weights[r]![c] = w
      }
    }
    const t3 = performance.now()
    return {
      kind: 'matrix',
      network: entry.network.id,
      code: any ? 'Ok' : 'NoRoute',
      distances,
      durations,
      ...(weights ? { weights } : {}),
      snapped: snaps.map(toSnapped),
      timing: { snap: t1 - t0, prepare: ms, search: t3 - t2 },
    }
  }

  predictive(job: PredictiveJob): PredictiveOutcome {
    const chosen = this.choose(job.networks, job.network, job.positions, () => ({
      profile: 'driving',
      rtype: 0,
    }))
    const none = (
      snapped: Array<SnappedPosition | null>,
      network: string | null,
      timeZone: string | null,
    ): PredictiveOutcome => ({
      kind: 'predictive',
      network,
      code: 'NoRoute',
      results: job.departures.map((departure) => ({ departure, distance: null, duration: null })),
      snapped,
      model: (job.speedModel ?? defaultSpeedModel()).model,
      timeZone,
    })
    if (!chosen)
      return none(
        job.positions.map(() => null),
        null,
        null,
      )
    const { entry, metric, snaps } = chosen
    const tz = entry.network.header.timeZone
    const snapped = snaps.map(toSnapped)
    if (snaps.some((s) => !s)) return none(snapped, entry.network.id, tz)
    const model = job.speedModel ?? defaultSpeedModel()
    const results: PredictiveOutcome['results'] = []
    let routers: TimeDependentRouter | undefined
    for (const departure of job.departures) {
      const offset = utcOffsetSeconds(tz, departure)
      if (!routers || routers.utcOffset !== offset) routers = new TimeDependentRouter(metric, model, offset)
      let time = departure
      let metres = 0
      let ok = true
      for (let i = 0; i + 1 < snaps.length; i++) {
        const leg = routers.leg(snaps[i]!, snaps[i + 1]!, time)
        if (!leg) {
          ok = false
          break
        }
        time += leg.seconds
        metres += leg.metres
      }
      results.push(
        ok
          ? {
              departure,
              distance: Math.round(metres * 10) / 10,
              duration: Math.round((time - departure) * 10) / 10,
            }
          : { departure, distance: null, duration: null },
      )
    }
    return {
      kind: 'predictive',
      network: entry.network.id,
      code: results.some((r) => r.duration !== null) ? 'Ok' : 'NoRoute',
      results,
      snapped,
      model: model.model,
      timeZone: tz,
    }
  }

  async route(job: RouteJob): Promise<RouteOutcome> {
    const rtype = job.rtype ?? 0
    const chosen = this.choose(job.networks, job.network, [job.from, job.to], () => ({
      profile: job.profile,
      rtype,
    }))
    if (!chosen) return { kind: 'route', network: null, route: null, snapped: [null, null] }
    const { entry, metric, snaps } = chosen
    const [from, to] = snaps
    const snapped = snaps.map(toSnapped)
    if (!from || !to) return { kind: 'route', network: entry.network.id, route: null, snapped }
    const { ch } = await this.hierarchy(entry, metric, metricKey(metric.spec), job.cacheDir)
    const r = routeBetween(metric, ch, from, to)
    return {
      kind: 'route',
      network: entry.network.id,
      route: r ? { distance: r.distance, duration: r.duration, geometry: r.geometry, steps: r.steps } : null,
      snapped,
    }
  }

  snap(job: SnapJob): SnapOutcome {
    const chosen = this.choose(job.networks, job.network, job.positions, () => ({
      profile: job.profile,
      rtype: 0,
    }))
    if (!chosen) return { kind: 'snap', network: null, snapped: job.positions.map(() => null) }
    return { kind: 'snap', network: chosen.entry.network.id, snapped: chosen.snaps.map(toSnapped) }
  }

  /** Random points on the roads a profile may use (seeded: the same seed gives the same points). */
  randomPoints(job: RandomPointsJob): RandomPointsOutcome {
    const entry = this.load(job.network)
    const net = entry.network
    const metric = this.metric(entry, { profile: job.profile, rtype: 0 })
    const cumulative = new Float64Array(net.edgeCount)
    let total = 0
    for (let e = 0; e < net.edgeCount; e++) {
      if (metric.usable(e)) total += net.arrays.edgeLenDm[e]!
      cumulative[e] = total
    }
    const random = seededRandom(job.seed)
    const points: LonLat[] = []
    for (let i = 0; i < job.count && total > 0; i++) {
      const target = random() * total
      let lo = 0
      let hi = net.edgeCount - 1
      while (lo < hi) {
        const mid = (lo + hi) >> 1
        if (cumulative[mid]! > target) hi = mid
        else lo = mid + 1
      }
      points.push(net.pointAt(lo, random()))
    }
    return { kind: 'randomPoints', network: net.id, points }
  }

  /** Bytes the loaded networks and their hierarchies hold (outside the V8 heap: typed arrays). */
  bytes(): number {
    let total = 0
    for (const entry of this.loaded.values()) total += entry.network.bytes + entry.network.metricBytes
    return total
  }

  /** What the engine holds: networks loaded, metrics kept, their bytes. */
  stats(): { networks: number; metrics: number; bytes: number } {
    let metrics = 0
    for (const entry of this.loaded.values()) metrics += entry.network.metricKeys.length
    return { networks: this.loaded.size, metrics, bytes: this.bytes() }
  }

  info(job: InfoJob): InfoOutcome {
    const entry = this.load(job.network)
    const h = entry.network.header
    return {
      kind: 'info',
      network: h.id,
      name: h.name,
      attribution: h.attribution,
      bbox: h.bbox,
      timeZone: h.timeZone,
      counts: h.counts,
      loadMs: entry.loadMs,
      bytes: entry.network.bytes,
    }
  }
}

function coversBox(b: readonly number[], p: LonLat): boolean {
  const margin = 0.05
  return p[0] >= b[0]! - margin && p[0] <= b[2]! + margin && p[1] >= b[1]! - margin && p[1] <= b[3]! + margin
}

function toSnapped(s: Snap | null): SnappedPosition | null {
  return s
    ? {
        lon: Math.round(s.lon * 1e7) / 1e7,
        lat: Math.round(s.lat * 1e7) / 1e7,
        distance: Math.round(s.distance * 10) / 10,
      }
    : null
}
