/** Axis-aligned rectangles in pixels: x, y of the top-left corner, width and height (x + w is exclusive). */
export interface Rect {
  x: number
  y: number
  w: number
  h: number
}

export type Orientation = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8

export function area(r: Rect): number {
  return Math.max(0, r.w) * Math.max(0, r.h)
}

export function intersection(a: Rect, b: Rect): Rect {
  const x = Math.max(a.x, b.x)
  const y = Math.max(a.y, b.y)
  const w = Math.min(a.x + a.w, b.x + b.w) - x
  const h = Math.min(a.y + a.h, b.y + b.h) - y
  return { x, y, w: Math.max(0, w), h: Math.max(0, h) }
}

export function union(a: Rect, b: Rect): Rect {
  const x = Math.min(a.x, b.x)
  const y = Math.min(a.y, b.y)
  return { x, y, w: Math.max(a.x + a.w, b.x + b.w) - x, h: Math.max(a.y + a.h, b.y + b.h) - y }
}

/** Intersection over the smaller of the two: 1 when one lies inside the other. */
export function overlapOfSmaller(a: Rect, b: Rect): number {
  const smaller = Math.min(area(a), area(b))
  return smaller > 0 ? area(intersection(a, b)) / smaller : 0
}

/** Width and height as the image is shown, after its EXIF orientation. */
export function orientedSize(
  width: number,
  height: number,
  orientation: Orientation,
): { width: number; height: number } {
  return orientation >= 5 ? { width: height, height: width } : { width, height }
}

/**
 * Where a shown point (after EXIF orientation) lies in the stored pixel grid. Coordinates are continuous
 * (pixel edges), so a rectangle maps by its corners. `width`/`height` are the stored dimensions.
 */
export function shownToStored(
  px: number,
  py: number,
  width: number,
  height: number,
  orientation: Orientation,
): [number, number] {
  switch (orientation) {
    case 1:
      return [px, py]
    case 2:
      return [width - px, py]
    case 3:
      return [width - px, height - py]
    case 4:
      return [px, height - py]
    case 5:
      return [py, px]
    case 6:
      return [py, height - px]
    case 7:
      return [width - py, height - px]
    case 8:
      return [width - py, px]
  }
}

/**
 * Stored pixel number (row-major, sy·W + sx) of the shown pixel (x, y), both integers inside the shown image:
 * the pixel-centre form of shownToStored, for loops over pixels. W and H are the stored size.
 */
export function storedPixel(x: number, y: number, W: number, H: number, orientation: Orientation): number {
  switch (orientation) {
    case 1:
      return y * W + x
    case 2:
      return y * W + (W - 1 - x)
    case 3:
      return (H - 1 - y) * W + (W - 1 - x)
    case 4:
      return (H - 1 - y) * W + x
    case 5:
      return x * W + y
    case 6:
      return (H - 1 - x) * W + y
    case 7:
      return (H - 1 - x) * W + (W - 1 - y)
    default:
      return x * W + (W - 1 - y)
  }
}

/** A rectangle of the shown image as the rectangle it covers in the stored pixel grid. */
export function rectShownToStored(r: Rect, width: number, height: number, orientation: Orientation): Rect {
  const [x0, y0] = shownToStored(r.x, r.y, width, height, orientation)
  const [x1, y1] = shownToStored(r.x + r.w, r.y + r.h, width, height, orientation)
  return { x: Math.min(x0, x1), y: Math.min(y0, y1), w: Math.abs(x1 - x0), h: Math.abs(y1 - y0) }
}

/** Clip to the image; integer pixel edges that cover the whole of the rectangle. */
export function clipRect(r: Rect, width: number, height: number): Rect {
  const x0 = Math.max(0, Math.floor(r.x))
  const y0 = Math.max(0, Math.floor(r.y))
  const x1 = Math.min(width, Math.ceil(r.x + r.w))
  const y1 = Math.min(height, Math.ceil(r.y + r.h))
  return { x: x0, y: y0, w: Math.max(0, x1 - x0), h: Math.max(0, y1 - y0) }
}

/**
 * The region to blur around a plate's text: a plate is ~1.5× its text's height and a little wider, so the
 * box grows by `margin` × its height on every side (and at least `minPixels`).
 */
export function grow(r: Rect, margin: number, minPixels = 2): Rect {
  const d = Math.max(minPixels, r.h * margin)
  return { x: r.x - d, y: r.y - d, w: r.w + 2 * d, h: r.h + 2 * d }
}

/**
 * A box found on the panorama extended past its right edge (x up to width + pad) as the boxes it covers
 * in the image: the part past the 360° seam continues at the left edge.
 */
export function wrapAcrossSeam(r: Rect, width: number): Rect[] {
  let x = r.x % width
  if (x < 0) x += width
  if (r.w >= width) return [{ x: 0, y: r.y, w: width, h: r.h }]
  if (x + r.w <= width) return [{ ...r, x }]
  return [
    { x, y: r.y, w: width - x, h: r.h },
    { x: 0, y: r.y, w: x + r.w - width, h: r.h },
  ]
}

/** Tiles of at most `size` pixels overlapping by `overlap`, covering [0, width) × [0, height). */
export function tileGrid(width: number, height: number, size: number, overlap: number): Rect[] {
  const starts = (extent: number): number[] => {
    if (extent <= size) return [0]
    const step = size - overlap
    const n = Math.ceil((extent - size) / step) + 1
    const out: number[] = []
    for (let i = 0; i < n; i++) out.push(Math.min(i * step, extent - size))
    return out
  }
  const tiles: Rect[] = []
  for (const y of starts(height)) {
    for (const x of starts(width)) {
      tiles.push({ x, y, w: Math.min(size, width - x), h: Math.min(size, height - y) })
    }
  }
  return tiles
}

/**
 * Boxes found twice (in overlapping tiles, or once whole and once cut at a tile's edge) become one: boxes
 * that overlap by more than `threshold` of the smaller one are replaced by their union.
 */
export function mergeOverlapping<T extends { rect: Rect }>(
  items: readonly T[],
  threshold: number,
  combine: (a: T, b: T) => T,
): T[] {
  const out = [...items]
  let changed = true
  while (changed) {
    changed = false
    outer: for (let i = 0; i < out.length; i++) {
      for (let j = i + 1; j < out.length; j++) {
        const a = out[i] as T
        const b = out[j] as T
        if (overlapOfSmaller(a.rect, b.rect) > threshold) {
          out[i] = combine(a, b)
          out.splice(j, 1)
          changed = true
          break outer
        }
      }
    }
  }
  return out
}
