import { strToU8 } from 'fflate'

/** A point Shapefile (.shp, .shx, .dbf with one text field) written byte by byte. */
export function pointShapefile(points: Array<[number, number, string]>): Record<string, Uint8Array> {
  const n = points.length
  const shp = new DataView(new ArrayBuffer(100 + n * 28))
  const shx = new DataView(new ArrayBuffer(100 + n * 8))
  for (const [view, length] of [
    [shp, 100 + n * 28],
    [shx, 100 + n * 8],
  ] as const) {
    view.setInt32(0, 9994)
    view.setInt32(24, length / 2)
    view.setInt32(28, 1000, true)
    view.setInt32(32, 1, true)
    const xs = points.map((p) => p[0])
    const ys = points.map((p) => p[1])
    view.setFloat64(36, Math.min(...xs), true)
    view.setFloat64(44, Math.min(...ys), true)
    view.setFloat64(52, Math.max(...xs), true)
    view.setFloat64(60, Math.max(...ys), true)
  }
  points.forEach(([x, y], i) => {
    const at = 100 + i * 28
    shp.setInt32(at, i + 1)
    shp.setInt32(at + 4, 10)
    shp.setInt32(at + 8, 1, true)
    shp.setFloat64(at + 12, x, true)
    shp.setFloat64(at + 20, y, true)
    shx.setInt32(100 + i * 8, at / 2)
    shx.setInt32(104 + i * 8, 10)
  })
  const fieldLength = 20
  const dbf = new Uint8Array(32 + 32 + 1 + n * (1 + fieldLength) + 1)
  const dv = new DataView(dbf.buffer)
  dbf[0] = 3
  dv.setInt32(4, n, true)
  dv.setInt16(8, 32 + 32 + 1, true)
  dv.setInt16(10, 1 + fieldLength, true)
  dbf.set(strToU8('name'), 32)
  dbf[32 + 11] = 'C'.charCodeAt(0)
  dbf[32 + 16] = fieldLength
  dbf[64] = 0x0d
  points.forEach(([, , name], i) => {
    const at = 65 + i * (1 + fieldLength)
    dbf[at] = 0x20
    dbf.set(strToU8(name.padEnd(fieldLength)), at + 1)
  })
  dbf[dbf.length - 1] = 0x1a
  return { 'pts.shp': new Uint8Array(shp.buffer), 'pts.shx': new Uint8Array(shx.buffer), 'pts.dbf': dbf }
}
