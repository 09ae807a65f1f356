import Flatbush from 'flatbush'
import type { EdgeAttribute, NetworkArrays, NetworkData, NetworkHeader } from './graph-file'
import { Growable, IdIndex } from './id-index'
import { wayAttributes, type Tags } from './profiles'

const E7 = 1e7
const EARTH_RADIUS_M = 6_371_008.8
const RAD = Math.PI / 180

/** Great-circle distance in metres between two points given in 1e-7 degrees. */
export function haversineE7(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const p1 = (lat1 / E7) * RAD
  const p2 = (lat2 / E7) * RAD
  const dp = p2 - p1
  const dl = ((lon2 - lon1) / E7) * RAD
  const a = Math.sin(dp / 2) ** 2 + Math.cos(p1) * Math.cos(p2) * Math.sin(dl / 2) ** 2
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)))
}

const USE_GRAPH_NODE = 255

export interface BuildMeta {
  id: string
  name: string
  attribution: string
  source: string
  timeZone?: string
  /** Fixed build time (reproducible builds); now when absent. */
  built?: string
}

/**
 * Builds the compressed graph from OSM ways. Ways arrive first (with node references turned into dense
 * indexes by `nodeForId` or `nodeForCoord`), node coordinates afterwards (`setCoord`): the order of a
 * two-pass read of an .osm.pbf or OSM XML file, so only the nodes of routable ways are ever kept.
 */
export class GraphBuilder {
  private readonly ids = new IdIndex()
  private readonly coordKeys = new Map<string, number>()
  private nodeCount = 0
  private readonly use = new Growable(Uint8Array, 1 << 16)
  private readonly lon = new Growable(Int32Array, 1 << 16)
  private readonly lat = new Growable(Int32Array, 1 << 16)
  private readonly hasCoord = new Growable(Uint8Array, 1 << 16)
  private readonly wayRefs = new Growable(Uint32Array, 1 << 18)
  private readonly wayStart = new Growable(Uint32Array, 1 << 14)
  private readonly wayAttr = new Growable(Uint16Array, 1 << 14)
  private readonly attrs: EdgeAttribute[] = []
  private readonly attrKeys = new Map<string, number>()

  get wayCount(): number {
    return this.wayStart.length
  }

  get nodesNeeded(): number {
    return this.nodeCount
  }

  private newNode(): number {
    const n = this.nodeCount++
    this.use.reserve(n + 1)
    this.lon.reserve(n + 1)
    this.lat.reserve(n + 1)
    this.hasCoord.reserve(n + 1)
    this.use.length = this.lon.length = this.lat.length = this.hasCoord.length = this.nodeCount
    return n
  }

  /** Dense index of an OSM node id (pass 1). */
  nodeForId(id: number): number {
    const before = this.ids.size
    const d = this.ids.getOrAdd(id)
    if (this.ids.size > before) this.newNode()
    return d
  }

  /** Dense index of an OSM node id seen in pass 1, or -1 (pass 2). */
  lookupId(id: number): number {
    return this.ids.get(id)
  }

  /** Dense index of a coordinate (sources without node ids, such as GeoJSON); the coordinate is set. */
  nodeForCoord(lon: number, lat: number): number {
    const x = Math.round(lon * E7)
    const y = Math.round(lat * E7)
    const key = `${x},${y}`
    let d = this.coordKeys.get(key)
    if (d === undefined) {
      d = this.newNode()
      this.coordKeys.set(key, d)
      this.setCoordE7(d, x, y)
    }
    return d
  }

  setCoord(dense: number, lon: number, lat: number): void {
    this.setCoordE7(dense, Math.round(lon * E7), Math.round(lat * E7))
  }

  private setCoordE7(dense: number, x: number, y: number): void {
    this.lon.set(dense, x)
    this.lat.set(dense, y)
    this.hasCoord.set(dense, 1)
  }

  /** Whether a way with these tags is kept (some profile may use it). */
  static routable(tags: Tags): boolean {
    return wayAttributes(tags) !== undefined
  }

  /** Add a way by dense node indexes; false when no profile may use it. */
  addWay(refs: ArrayLike<number>, tags: Tags): boolean {
    if (refs.length < 2) return false
    const attrs = wayAttributes(tags)
    if (!attrs) return false
    const views = attrs.views.map(
      (v) => [v.forward, v.backward, Math.round(v.speed)] as [number, number, number],
    )
    const key = JSON.stringify([attrs.cls, views])
    let a = this.attrKeys.get(key)
    if (a === undefined) {
      a = this.attrs.length
      if (a > 0xffff) throw new Error('too many distinct way attributes (more than 65,536)')
      this.attrs.push({ cls: attrs.cls, views })
      this.attrKeys.set(key, a)
    }
    this.wayStart.push(this.wayRefs.length)
    this.wayAttr.push(a)
    const use = this.use
    for (let i = 0; i < refs.length; i++) {
      const d = refs[i]!
      this.wayRefs.push(d)
      const u = use.get(d)
      const add = i === 0 || i === refs.length - 1 ? 2 : 1
      use.set(d, Math.min(USE_GRAPH_NODE, u + add))
    }
    return true
  }

  /** Release the id table once coordinates are all in (pass 2 done). */
  releaseIds(): void {
    this.ids.release()
    this.coordKeys.clear()
  }

  /** The compressed graph with its geometry and snapping index. */
  finish(meta: BuildMeta): NetworkData {
    const wayCount = this.wayStart.length
    const refs = this.wayRefs
    const use = this.use
    const has = this.hasCoord
    const wayEnd = (w: number) => (w + 1 < wayCount ? this.wayStart.get(w + 1) : refs.length)
    // A reference to a node without coordinates (outside the extract) cuts the way: its neighbours end edges.
    for (let w = 0; w < wayCount; w++) {
      for (let i = this.wayStart.get(w), end = wayEnd(w); i < end; i++) {
        if (has.get(refs.get(i)) === 1) continue
        if (i > this.wayStart.get(w)) use.set(refs.get(i - 1), USE_GRAPH_NODE)
        if (i + 1 < end) use.set(refs.get(i + 1), USE_GRAPH_NODE)
      }
    }
    const graphId = new Int32Array(this.nodeCount).fill(-1)
    const nodeLon = new Growable(Int32Array)
    const nodeLat = new Growable(Int32Array)
    const edgeU = new Growable(Uint32Array)
    const edgeV = new Growable(Uint32Array)
    const edgeAttr = new Growable(Uint16Array)
    const edgeLen = new Growable(Uint32Array)
    const geomOffset = new Growable(Uint32Array)
    const coordLon = new Growable(Int32Array, 1 << 16)
    const coordLat = new Growable(Int32Array, 1 << 16)
    const graphNode = (d: number) => {
      let g = graphId[d]!
      if (g < 0) {
        g = graphId[d] = nodeLon.length
        nodeLon.push(this.lon.get(d))
        nodeLat.push(this.lat.get(d))
      }
      return g
    }
    let minLon = Infinity
    let minLat = Infinity
    let maxLon = -Infinity
    let maxLat = -Infinity
    for (let w = 0; w < wayCount; w++) {
      const attr = this.wayAttr.get(w)
      const end = wayEnd(w)
      // The open run starts at a graph node (a way's first node, or one next to a missing node).
      let startNode = -1
      let startCoord = 0
      let length = 0
      let prevX = 0
      let prevY = 0
      const closeRun = () => {
        // A run with only its start coordinate left: nothing to keep.
        if (startNode >= 0) coordLon.length = coordLat.length = startCoord
        startNode = -1
      }
      for (let i = this.wayStart.get(w); i < end; i++) {
        const d = refs.get(i)
        if (has.get(d) !== 1) {
          closeRun()
          continue
        }
        const x = this.lon.get(d)
        const y = this.lat.get(d)
        if (startNode < 0) {
          startNode = graphNode(d)
          startCoord = coordLon.length
          coordLon.push(x)
          coordLat.push(y)
          length = 0
          prevX = x
          prevY = y
          continue
        }
        const isNode = use.get(d) >= 2
        if (x !== prevX || y !== prevY) {
          length += haversineE7(prevX, prevY, x, y)
          coordLon.push(x)
          coordLat.push(y)
          prevX = x
          prevY = y
        } else if (!isNode) continue
        if (!isNode) continue
        const v = graphNode(d)
        if (v === startNode && length === 0) continue
        if (coordLon.length - startCoord < 2) {
          // Two graph nodes at one position: a zero-length link keeps them connected.
          coordLon.push(x)
          coordLat.push(y)
        }
        edgeU.push(startNode)
        edgeV.push(v)
        edgeAttr.push(attr)
        edgeLen.push(Math.max(1, Math.round(length * 10)))
        geomOffset.push(startCoord)
        for (let k = startCoord; k < coordLon.length; k++) {
          const cx = coordLon.get(k)
          const cy = coordLat.get(k)
          if (cx < minLon) minLon = cx
          if (cx > maxLon) maxLon = cx
          if (cy < minLat) minLat = cy
          if (cy > maxLat) maxLat = cy
        }
        // The end node starts the next run; its coordinate is repeated so each edge's geometry is whole.
        startNode = v
        startCoord = coordLon.length
        coordLon.push(x)
        coordLat.push(y)
        length = 0
      }
      closeRun()
    }
    geomOffset.push(coordLon.length)
    const edges = edgeU.length
    const coords = coordLon.length
    const bbox: [number, number, number, number] =
      edges > 0 ? [minLon / E7, minLat / E7, maxLon / E7, maxLat / E7] : [0, 0, 0, 0]
    const indexLat = (bbox[1] + bbox[3]) / 2
    const arrays: Omit<NetworkArrays, 'edgeIndex'> = {
      nodeLon: nodeLon.toArray(),
      nodeLat: nodeLat.toArray(),
      edgeU: edgeU.toArray(),
      edgeV: edgeV.toArray(),
      edgeAttr: edgeAttr.toArray(),
      edgeLenDm: edgeLen.toArray(),
      geomOffset: geomOffset.toArray(),
      coordLon: coordLon.toArray(),
      coordLat: coordLat.toArray(),
    }
    const edgeIndex = buildEdgeIndex(arrays, indexLat)
    const header: NetworkHeader = {
      id: meta.id,
      name: meta.name,
      attribution: meta.attribution,
      source: meta.source,
      built: meta.built ?? new Date().toISOString(),
      timeZone: meta.timeZone ?? guessTimeZone(bbox),
      bbox,
      indexLat,
      attributes: this.attrs,
      counts: { nodes: nodeLon.length, edges, coords, ways: wayCount },
      arrays: [],
    }
    return { header, arrays: { ...arrays, edgeIndex } }
  }
}

/** A packed R-tree of the edges' boxes, in degrees with longitudes scaled by cos(indexLat). */
export function buildEdgeIndex(
  a: Pick<NetworkArrays, 'geomOffset' | 'coordLon' | 'coordLat'>,
  indexLat: number,
): Uint8Array {
  const edges = a.geomOffset.length - 1
  const k = Math.cos(indexLat * RAD) / E7
  // Float32 boxes halve the index; they are widened by one float step so every edge stays inside its box.
  const index = new Flatbush(Math.max(1, edges), 16, Float32Array)
  const pad = 1e-6
  for (let e = 0; e < edges; e++) {
    let minX = Infinity
    let minY = Infinity
    let maxX = -Infinity
    let maxY = -Infinity
    for (let c = a.geomOffset[e]!; c < a.geomOffset[e + 1]!; c++) {
      const x = a.coordLon[c]! * k
      const y = a.coordLat[c]! / E7
      if (x < minX) minX = x
      if (x > maxX) maxX = x
      if (y < minY) minY = y
      if (y > maxY) maxY = y
    }
    index.add(minX - pad, minY - pad, maxX + pad, maxY + pad)
  }
  if (edges === 0) index.add(1e6, 1e6, 1e6, 1e6)
  index.finish()
  return new Uint8Array(index.data as ArrayBuffer)
}

/**
 * The time zone the speed model reads hours in, when the importer was not told: India Standard Time for
 * an extract inside India's bounding box, else the nautical zone of the centre's longitude (Etc/GMT±N).
 */
export function guessTimeZone(bbox: readonly number[]): string {
  const lon = ((bbox[0] ?? 0) + (bbox[2] ?? 0)) / 2
  const lat = ((bbox[1] ?? 0) + (bbox[3] ?? 0)) / 2
  if (lon >= 68 && lon <= 97.5 && lat >= 6 && lat <= 37.5) return 'Asia/Kolkata'
  const offset = Math.round(lon / 15)
  if (offset === 0) return 'Etc/UTC'
  // Etc/GMT zones have inverted signs: Etc/GMT-5 is five hours ahead of UTC.
  return `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`
}

export type { Tags }
