import type { Geometry, MultiPolygon, Polygon, Position } from 'geojson'
import { geoJsonIssues } from '@contract/gis/geojson'

interface Segment {
  ax: number
  ay: number
  bx: number
  by: number
  minX: number
  maxX: number
  ring: number
  index: number
  /** Segments in the segment's ring. */
  count: number
}

function segmentsOf(rings: Position[][]): Segment[] {
  const out: Segment[] = []
  rings.forEach((ring, r) => {
    for (let i = 0; i < ring.length - 1; i++) {
      const [ax = 0, ay = 0] = ring[i] ?? []
      const [bx = 0, by = 0] = ring[i + 1] ?? []
      out.push({
        ax,
        ay,
        bx,
        by,
        minX: Math.min(ax, bx),
        maxX: Math.max(ax, bx),
        ring: r,
        index: i,
        count: ring.length - 1,
      })
    }
  })
  return out
}

/** Neighbouring segments of one ring share a vertex by construction; that is not a crossing. */
function adjacent(a: Segment, b: Segment): boolean {
  if (a.ring !== b.ring) return false
  const gap = Math.abs(a.index - b.index)
  return gap === 1 || gap === a.count - 1
}

function intersection(a: Segment, b: Segment): [number, number] | null {
  const d = (a.bx - a.ax) * (b.by - b.ay) - (a.by - a.ay) * (b.bx - b.ax)
  if (d === 0) return null
  const ua = ((b.ax - a.ax) * (b.by - b.ay) - (b.ay - a.ay) * (b.bx - b.ax)) / d
  const ub = ((b.ax - a.ax) * (a.by - a.ay) - (b.ay - a.ay) * (a.bx - a.ax)) / d
  if (ua < 0 || ua > 1 || ub < 0 || ub > 1) return null
  return [a.ax + ua * (a.bx - a.ax), a.ay + ua * (a.by - a.ay)]
}

/**
 * Points where a polygon's rings cross themselves or each other (what turf's `kinks` reports, with a
 * sweep over x instead of comparing every pair of segments, so imported shapes of many thousand
 * vertices stay quick).
 */
export function selfIntersections(geometry: Polygon | MultiPolygon): Array<[number, number]> {
  const rings = geometry.type === 'Polygon' ? geometry.coordinates : geometry.coordinates.flat()
  const segments = segmentsOf(rings).sort((a, b) => a.minX - b.minX)
  const found: Array<[number, number]> = []
  let active: Segment[] = []
  for (const segment of segments) {
    active = active.filter((a) => a.maxX >= segment.minX)
    for (const other of active) {
      if (adjacent(other, segment)) continue
      const point = intersection(other, segment)
      if (point) found.push(point)
    }
    active.push(segment)
  }
  return found
}

/**
 * What stops a shape from being sent, in words naming the shape: RFC 7946 issues (shared contract
 * check) and self-intersecting polygons. Empty when the shape can be sent.
 */
export function shapeProblems(name: string, geometry: Geometry | null): string[] {
  if (!geometry) return [`${name} has no geometry`]
  const issues = geoJsonIssues(
    { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry }] },
    'shape',
  )
  if (issues.length > 0) {
    return issues.map((i) => `${name}: ${i.field.replace(/^shape\.features\.0\./, '')} ${i.rule}`)
  }
  if (geometry.type === 'Polygon' || geometry.type === 'MultiPolygon') {
    const crossings = selfIntersections(geometry).length
    if (crossings > 0) {
      return [
        `${name} crosses itself (${crossings} ${crossings === 1 ? 'crossing' : 'crossings'}): move a vertex so its edges do not cross`,
      ]
    }
  }
  return []
}
