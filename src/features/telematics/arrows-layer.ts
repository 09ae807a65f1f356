import Layer from 'ol/layer/Layer'
import type { FrameState } from 'ol/Map'
import { createLayerCanvas, fitLayerCanvas, viewMoving } from '../map/view/layer-canvas'
import { followTransform } from '../map/view/points-gl'
import { ARROW_HALF, arrowSprite, headingStep, spriteRatio } from './arrow-sprites'

/** The devices as the layer draws them: parallel arrays, one entry per device with a position. */
export interface ArrowData {
  ids: Int32Array
  /** EPSG:3857 x, y of each device, interleaved. */
  xy: Float64Array
  status: Int16Array
  /** Degrees clockwise from north. */
  heading: Float32Array
}

const EMPTY: ArrowData = {
  ids: new Int32Array(0),
  xy: new Float64Array(0),
  status: new Int16Array(0),
  heading: new Float32Array(0),
}

/** A frame's drawing took longer than this (ms): while the map moves the last one follows it instead. */
const FOLLOW_ABOVE_MS = 12

/**
 * The live fleet's arrows, drawn by this layer itself on one 2D canvas: each arrow is one copy of a small
 * canvas drawn once per status and heading (`arrow-sprites.ts`), straight from typed arrays. No OpenLayers
 * feature, style function, instruction list or spatial index per device: a poll that moves 2,000 of 5,000
 * devices costs one pass over the arrays and 5,000 image copies, not a rebuilt index and a replayed image
 * (decision 033). While the map is panned or zoomed the arrows are drawn each frame, or — when a drawing
 * takes longer than a frame allows — the last drawing follows the map as a CSS transform until it stops.
 */
export class ArrowsLayer extends Layer {
  private readonly container: HTMLDivElement
  private readonly canvas: HTMLCanvasElement
  private data: ArrowData = EMPTY
  /** The coordinate-to-pixel transform of the last drawing, and whether the data changed since. */
  private drawnFor: number[] | null = null
  private stale = true
  private lastDrawMs = 0
  private drawn = 0

  constructor(options: { properties?: Record<string, unknown>; minZoom?: number } = {}) {
    super({ ...options, render: (frameState: FrameState) => this.draw(frameState) })
    const made = createLayerCanvas('geo-fleet-arrows')
    this.container = made.container
    this.canvas = made.canvas
  }

  /** The devices to draw (the arrays are kept, not copied: give new ones for the next change). */
  setDevices(data: ArrowData): void {
    this.data = data
    this.stale = true
    this.changed()
  }

  /** The devices last given. */
  get devices(): ArrowData {
    return this.data
  }

  get count(): number {
    return this.data.ids.length
  }

  /** How many arrows the last frame drew (those in view). */
  get drawnCount(): number {
    return this.drawn
  }

  /**
   * The device nearest `pixel` (CSS pixels of the map's viewport, `coordinateToPixel` the frame's
   * transform) within `tolerance` pixels of its arrow's centre, or null; of equals the last drawn, on top.
   */
  deviceAt(
    pixel: readonly number[],
    coordinateToPixel: readonly number[],
    tolerance = ARROW_HALF - 2,
  ): number | null {
    const [a, b, c, d, e, f] = coordinateToPixel as [number, number, number, number, number, number]
    const { ids, xy } = this.data
    let best: number | null = null
    let bestD = tolerance * tolerance
    for (let i = 0; i < ids.length; i++) {
      const x = xy[2 * i]!
      const y = xy[2 * i + 1]!
      const dx = a * x + c * y + e - pixel[0]!
      const dy = b * x + d * y + f - pixel[1]!
      const dd = dx * dx + dy * dy
      if (dd <= bestD) {
        bestD = dd
        best = ids[i]!
      }
    }
    return best
  }

  /** The ids of the devices whose position `inside` (EPSG:3857 x, y) accepts. */
  devicesWhere(inside: (x: number, y: number) => boolean): number[] {
    const { ids, xy } = this.data
    const found: number[] = []
    for (let i = 0; i < ids.length; i++) if (inside(xy[2 * i]!, xy[2 * i + 1]!)) found.push(ids[i]!)
    return found
  }

  /** Whether a device lies in any of these EPSG:3857 extents (what the legend asks). */
  anyIn(extents: readonly number[][]): boolean {
    const { xy } = this.data
    for (let i = 0; i < xy.length; i += 2) {
      const x = xy[i]!
      const y = xy[i + 1]!
      for (const [x0, y0, x1, y1] of extents) if (x >= x0! && x <= x1! && y >= y0! && y <= y1!) return true
    }
    return false
  }

  private draw(frameState: FrameState): HTMLElement {
    const { width, height, resized } = fitLayerCanvas(frameState, this.container, this.canvas)
    if (resized) this.stale = true
    const ratio = frameState.pixelRatio
    if (viewMoving(frameState) && !this.stale && this.drawnFor && this.lastDrawMs > FOLLOW_ABOVE_MS) {
      this.canvas.style.transform = followTransform(this.drawnFor, frameState.coordinateToPixelTransform)
      return this.container
    }
    const started = performance.now()
    this.canvas.style.transform = ''
    const m = frameState.coordinateToPixelTransform
    this.drawnFor = m.slice()
    this.stale = false
    const ctx = this.canvas.getContext('2d')!
    ctx.setTransform(1, 0, 0, 1, 0, 0)
    ctx.clearRect(0, 0, width, height)
    const [a, b, c, d, e, f] = m as [number, number, number, number, number, number]
    const sprite = spriteRatio(ratio)
    // Sprites are drawn at their own pixel ratio and copied unscaled when it is the canvas's.
    const scale = ratio / sprite
    const size = Math.ceil(2 * ARROW_HALF * sprite)
    const drawnSize = size * scale
    const half = drawnSize / 2
    const rotation = frameState.viewState.rotation
    const { ids, xy, status, heading } = this.data
    let drawn = 0
    for (let i = 0; i < ids.length; i++) {
      const x = xy[2 * i]!
      const y = xy[2 * i + 1]!
      const px = (a * x + c * y + e) * ratio
      const py = (b * x + d * y + f) * ratio
      if (px < -half || py < -half || px > width + half || py > height + half) continue
      const image = arrowSprite(status[i]!, headingStep(heading[i]!, rotation), sprite)
      // Whole device pixels: a copy without resampling.
      if (scale === 1) ctx.drawImage(image, Math.round(px - half), Math.round(py - half))
      else ctx.drawImage(image, px - half, py - half, drawnSize, drawnSize)
      drawn++
    }
    this.drawn = drawn
    this.lastDrawMs = performance.now() - started
    return this.container
  }
}
