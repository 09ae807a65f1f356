/** Perspective placement of a small RGBA picture (a plate, a sign) into an RGB scene. */
export type Point = [number, number]

/** Homography taking the four `from` points to the four `to` points (8×8 linear solve). */
export function homography(from: readonly Point[], to: readonly Point[]): number[] {
  const a: number[][] = []
  const b: number[] = []
  for (let i = 0; i < 4; i++) {
    const [x, y] = from[i] as Point
    const [u, v] = to[i] as Point
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y])
    b.push(u)
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y])
    b.push(v)
  }
  // Gaussian elimination with partial pivoting
  const n = 8
  for (let c = 0; c < n; c++) {
    let p = c
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r]![c]!) > Math.abs(a[p]![c]!)) p = r
    ;[a[c], a[p]] = [a[p]!, a[c]!]
    ;[b[c], b[p]] = [b[p]!, b[c]!]
    for (let r = 0; r < n; r++) {
      if (r === c) continue
      const f = a[r]![c]! / a[c]![c]!
      for (let k = c; k < n; k++) a[r]![k]! -= f * a[c]![k]!
      b[r]! -= f * b[c]!
    }
  }
  const h = b.map((v, i) => v / a[i]![i]!)
  return [...h, 1]
}

export function apply(h: readonly number[], x: number, y: number): Point {
  const w = h[6]! * x + h[7]! * y + h[8]!
  return [(h[0]! * x + h[1]! * y + h[2]!) / w, (h[3]! * x + h[4]! * y + h[5]!) / w]
}

export interface Scene {
  data: Uint8Array
  width: number
  height: number
}

/**
 * Draw `src` (RGBA, `sw`×`sh`) into the scene so that its corners land on `quad` (TL, TR, BR, BL), with
 * 4×4 supersampling per scene pixel; x wraps around the scene's width when `wrap` (a 360° panorama).
 */
export function warpInto(
  scene: Scene,
  src: { data: Uint8Array; width: number; height: number },
  quad: readonly Point[],
  wrap = false,
): void {
  const { width: sw, height: sh, data: s } = src
  const h = homography(quad, [
    [0, 0],
    [sw, 0],
    [sw, sh],
    [0, sh],
  ])
  const xs = quad.map((p) => p[0])
  const ys = quad.map((p) => p[1])
  const x0 = Math.floor(Math.min(...xs))
  const x1 = Math.ceil(Math.max(...xs))
  const y0 = Math.max(0, Math.floor(Math.min(...ys)))
  const y1 = Math.min(scene.height, Math.ceil(Math.max(...ys)))
  const k = 4
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      let sx = x
      if (wrap) sx = ((x % scene.width) + scene.width) % scene.width
      else if (x < 0 || x >= scene.width) continue
      let r = 0
      let g = 0
      let bl = 0
      let cover = 0
      for (let j = 0; j < k; j++) {
        for (let i = 0; i < k; i++) {
          const [u, v] = apply(h, x + (i + 0.5) / k, y + (j + 0.5) / k)
          if (u < 0 || v < 0 || u >= sw || v >= sh) continue
          const o = (Math.floor(v) * sw + Math.floor(u)) * 4
          const alpha = s[o + 3]! / 255
          r += s[o]! * alpha
          g += s[o + 1]! * alpha
          bl += s[o + 2]! * alpha
          cover += alpha
        }
      }
      if (cover === 0) continue
      const a = cover / (k * k)
      const d = (y * scene.width + sx) * 3
      scene.data[d] = Math.round(scene.data[d]! * (1 - a) + (r / cover) * a)
      scene.data[d + 1] = Math.round(scene.data[d + 1]! * (1 - a) + (g / cover) * a)
      scene.data[d + 2] = Math.round(scene.data[d + 2]! * (1 - a) + (bl / cover) * a)
    }
  }
}

/** Share of the pixels inside `quad` for which `covered(x, y)` holds (pixel centres; x wraps if `width`). */
export function quadCoverage(
  quad: readonly Point[],
  covered: (x: number, y: number) => boolean,
  width?: number,
): number {
  const xs = quad.map((p) => p[0])
  const ys = quad.map((p) => p[1])
  let inside = 0
  let hit = 0
  for (let y = Math.floor(Math.min(...ys)); y < Math.ceil(Math.max(...ys)); y++) {
    for (let x = Math.floor(Math.min(...xs)); x < Math.ceil(Math.max(...xs)); x++) {
      if (!insideQuad(quad, x + 0.5, y + 0.5)) continue
      inside++
      const px = width ? ((x % width) + width) % width : x
      if (covered(px, y)) hit++
    }
  }
  return inside ? hit / inside : 0
}

function insideQuad(q: readonly Point[], x: number, y: number): boolean {
  let sign = 0
  for (let i = 0; i < 4; i++) {
    const [ax, ay] = q[i]!
    const [bx, by] = q[(i + 1) % 4]!
    const cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax)
    if (cross !== 0) {
      const s = Math.sign(cross)
      if (sign === 0) sign = s
      else if (s !== sign) return false
    }
  }
  return true
}
