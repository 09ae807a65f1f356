// A driving geometry made ready for testing (split from join.ts, issue 28): its GEOS geometry (the user
// geometry checked), its cell grids, what the grid decides per operator, and the DWithin tolerance.
import type { Geometry } from 'geojson'
import type { BBox } from '../../engine/geodesy'
import { CellGrid, Where } from './cell-grid'
import { destroy, toGeos, validity, makeValid, type Geos, type GeomPtr } from '../../engine/geos'
import type { FeatureTable } from './feature-table'
import { JoinInputError, type JoinInput } from './join-input'

/**
 * The relation of a source feature lying wholly in the interior or wholly in the exterior of an areal
 * reference, per operator(source, reference); undefined when the grid cannot tell (DWithin outside).
 */
export function decidedByGrid(op: string, where: Where): boolean | undefined {
  const inside = where === Where.Interior
  switch (op) {
    case 'Intersects':
    case 'Within':
      return inside
    case 'Disjoint':
      return !inside
    case 'DWithin':
      return inside ? true : undefined
    case 'Touches':
    case 'Overlaps':
    case 'Crosses':
    case 'Contains':
      return false
    default:
      return undefined
  }
}

/**
 * Build the GEOS geometry of a driving feature; the user geometry is also checked, and refused (or repaired)
 * when invalid, with GEOS's reason.
 */
export function prepareGeometry(
  geos: Geos,
  input: JoinInput,
  table: FeatureTable,
  i: number,
  geometry: Geometry,
  user: boolean,
): GeomPtr {
  let ptr: GeomPtr
  try {
    ptr = toGeos(geos, geometry)
  } catch (error) {
    const field = user ? `body.features.${i}.geometry` : `${table.name}[${i}]`
    throw new JoinInputError(400, `${field}: ${(error as Error).message}`, field)
  }
  if (!user) return ptr
  const v = validity(geos, ptr)
  if (!v.valid) {
    if (input.repairUserGeometry) {
      const repaired = makeValid(geos, ptr)
      destroy(geos, ptr)
      return repaired
    }
    destroy(geos, ptr)
    const field = `body.features.${i}.geometry`
    const at = v.location ? ` at ${v.location[0]} ${v.location[1]}` : ''
    throw new JoinInputError(400, `${field} is not a valid geometry: ${v.reason}${at}`, field, {
      reason: v.reason,
      location: v.location,
    })
  }
  return ptr
}

/**
 * A driving geometry (a reference, or a source feature when the planner drives with the source) made ready
 * for testing: the GEOS geometry, its prepared form (whose edge index GEOS
 * builds on first use) and the cell grids built for it, by grid size.
 */
export interface PreparedRef {
  ptr: GeomPtr
  prepared: number
  grids: Map<number, CellGrid | undefined>
}

export function gridFor(
  entry: PreparedRef,
  geometry: Geometry,
  box: BBox,
  candidates: number,
): CellGrid | undefined {
  const n = CellGrid.sizeFor(geometry, candidates)
  if (n === 0) return undefined
  if (entry.grids.has(n)) return entry.grids.get(n)
  const grid = CellGrid.build(geometry, box, candidates)
  if (entry.grids.size >= 4) entry.grids.clear()
  entry.grids.set(n, grid)
  return grid
}

/**
 * How far (metres) DWithin's planar stand-in of a geography may stray from its great-circle edges: a quarter
 * of the distance, so that whatever the stand-in gets wrong near the boundary is within the distance anyway
 * (at least 1 mm, for DWithin 0). Decision 011.
 */
/** Longest degree of latitude on WGS84 (at the poles), metres, rounded up. */
export const METRES_PER_DEGREE_MAX = 111_700

export const geographyTolerance = (distance: number) => Math.max(1e-3, distance / 4)

/** The relation with its arguments swapped: op(a, b) = converse(op)(b, a). */
const CONVERSE: Readonly<Record<string, string>> = { Within: 'Contains', Contains: 'Within' }
export const converse = (op: string): string => CONVERSE[op] ?? op

/** The indices 0 to n - 1, in order. */
export function firstIds(n: number): Int32Array {
  const ids = new Int32Array(n)
  for (let i = 0; i < n; i++) ids[i] = i
  return ids
}

/** Whether box `a` holds box `b` (edges may meet). */
export const boxHolds = (a: BBox, b: Readonly<BBox>): boolean =>
  a[0] <= b[0] && a[1] <= b[1] && a[2] >= b[2] && a[3] >= b[3]
