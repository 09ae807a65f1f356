/**
 * A packed R-tree in SQLite's R*Tree storage format (ext/rtree/rtree.c), for a 2-D table
 * `rtree(id, minx, maxx, miny, maxy)`: the rows of its three shadow tables, built bottom-up from entries
 * sorted along a Hilbert curve (as Flatbush and GDAL's bulk loader do), every node full but the last of each
 * level.
 *
 * Format: node 1 is the root; each node is a blob of the table's node size: 2 bytes depth (meaningful in the
 * root: levels above the leaves), 2 bytes cell count, then cells of an 8-byte id (a feature id in a leaf, a
 * child node number above) and four 4-byte floats minx, maxx, miny, maxy — all big-endian, the floats
 * rounded outward to single precision. `_rowid` maps each id to its leaf, `_parent` each node but the root
 * to its parent.
 */

export interface RtreeEntry {
  id: number
  /** minX, minY, maxX, maxY */
  box: readonly [number, number, number, number] | readonly number[]
}

export interface PackedRtree {
  nodes: Array<{ nodeno: number; data: Uint8Array }>
  rowids: Array<[number, number]>
  parents: Array<[number, number]>
}

const CELL_BYTES = 8 + 4 * 4

const scratch = new DataView(new ArrayBuffer(4))

/** The single-precision float nearest `x` on the side given: below (-1) or above (+1). */
export function float32Toward(x: number, side: -1 | 1): number {
  const f = Math.fround(x)
  if (f === x || !Number.isFinite(f) || (side < 0 ? f < x : f > x)) return f
  scratch.setFloat32(0, f)
  const bits = scratch.getInt32(0)
  // Away from zero means one more in the bit pattern; towards zero one less (zero itself crosses sign).
  const away = side > 0 ? f > 0 : f < 0
  if (f === 0) scratch.setFloat32(0, side > 0 ? 1.401298464324817e-45 : -1.401298464324817e-45)
  else scratch.setInt32(0, away ? bits + 1 : bits - 1)
  return scratch.getFloat32(0)
}

/** Position along a Hilbert curve of order 16 of (x, y) in 0…65535. */
function hilbert(x: number, y: number): number {
  let d = 0
  for (let s = 1 << 15; s > 0; s >>= 1) {
    const rx = (x & s) > 0 ? 1 : 0
    const ry = (y & s) > 0 ? 1 : 0
    d += s * s * ((3 * rx) ^ ry)
    if (ry === 0) {
      if (rx === 1) {
        x = s - 1 - x
        y = s - 1 - y
      }
      const t = x
      x = y
      y = t
    }
  }
  return d
}

interface Cell {
  id: number
  minX: number
  maxX: number
  minY: number
  maxY: number
}

function encodeNode(cells: readonly Cell[], depth: number, nodeBytes: number): Uint8Array {
  const data = new Uint8Array(nodeBytes)
  const view = new DataView(data.buffer)
  view.setUint16(0, depth)
  view.setUint16(2, cells.length)
  cells.forEach((c, i) => {
    const at = 4 + i * CELL_BYTES
    view.setBigInt64(at, BigInt(c.id))
    view.setFloat32(at + 8, c.minX)
    view.setFloat32(at + 12, c.maxX)
    view.setFloat32(at + 16, c.minY)
    view.setFloat32(at + 20, c.maxY)
  })
  return data
}

/** Pack entries into SQLite R*Tree nodes of `nodeBytes` bytes (the table's node size). */
export function packRtree(entries: readonly RtreeEntry[], nodeBytes: number): PackedRtree {
  const capacity = Math.floor((nodeBytes - 4) / CELL_BYTES)
  if (capacity < 2) throw new Error(`an R*Tree node of ${nodeBytes} bytes holds fewer than two cells`)
  let minX = Infinity
  let minY = Infinity
  let maxX = -Infinity
  let maxY = -Infinity
  const cells: Cell[] = entries.map(({ id, box }) => {
    const c = {
      id,
      minX: float32Toward(box[0]!, -1),
      minY: float32Toward(box[1]!, -1),
      maxX: float32Toward(box[2]!, 1),
      maxY: float32Toward(box[3]!, 1),
    }
    minX = Math.min(minX, c.minX)
    minY = Math.min(minY, c.minY)
    maxX = Math.max(maxX, c.maxX)
    maxY = Math.max(maxY, c.maxY)
    return c
  })
  const w = maxX - minX || 1
  const h = maxY - minY || 1
  const keys = new Float64Array(cells.length)
  cells.forEach((c, i) => {
    const x = Math.floor((((c.minX + c.maxX) / 2 - minX) / w) * 65535)
    const y = Math.floor((((c.minY + c.maxY) / 2 - minY) / h) * 65535)
    keys[i] = hilbert(x, y)
  })
  const order = Array.from(cells.keys()).sort((a, b) => keys[a]! - keys[b]!)
  let level: Cell[] = order.map((i) => cells[i]!)

  const out: PackedRtree = { nodes: [], rowids: [], parents: [] }
  // Node numbers: the root is 1; the others are numbered as they are made, from 2.
  let next = 2
  let depth = 0
  for (;;) {
    const root = level.length <= capacity
    const groups: Cell[][] = []
    for (let i = 0; i < level.length; i += capacity) groups.push(level.slice(i, i + capacity))
    const parents: Cell[] = []
    for (const group of groups) {
      const nodeno = root ? 1 : next++
      out.nodes.push({ nodeno, data: encodeNode(group, root ? depth : 0, nodeBytes) })
      for (const c of group) {
        if (depth === 0) out.rowids.push([c.id, nodeno])
        else out.parents.push([c.id, nodeno])
      }
      let bx0 = Infinity
      let by0 = Infinity
      let bx1 = -Infinity
      let by1 = -Infinity
      for (const c of group) {
        bx0 = Math.min(bx0, c.minX)
        by0 = Math.min(by0, c.minY)
        bx1 = Math.max(bx1, c.maxX)
        by1 = Math.max(by1, c.maxY)
      }
      parents.push({ id: nodeno, minX: bx0, maxX: bx1, minY: by0, maxY: by1 })
    }
    if (root) return out
    level = parents
    depth++
  }
}
