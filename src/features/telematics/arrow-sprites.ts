import { MAP_PALETTE } from '../../kit/palette'
import { statusColour } from './fleet-look'

/**
 * The fleet's arrows as small canvases, each drawn once: a narrow triangle pointing along a heading (in
 * steps of `HEADING_STEP`°), in a status colour, outlined, at a pixel ratio. The map then only copies them
 * (no per-arrow path, rotation or scaling while it draws 5,000 of them each second).
 */
export const HEADING_STEP = 10
const ARROW_RADIUS = 9
/** The triangle is narrowed across its heading: its width over the width of an equilateral one. */
const ARROW_NARROW = 0.7
const ARROW_STROKE = 1.5
/** Half the sprite's side in CSS pixels: the arrow turned any way, its outline and a pixel for smoothing. */
export const ARROW_HALF = ARROW_RADIUS + ARROW_STROKE + 1

const sprites = new Map<string, HTMLCanvasElement>()

/** The heading step (0–35) of a heading in degrees on a map turned by `viewRotation` radians. */
export function headingStep(heading: number, viewRotation = 0): number {
  const degrees = heading + (viewRotation * 180) / Math.PI
  return Math.round((((degrees % 360) + 360) % 360) / HEADING_STEP) % (360 / HEADING_STEP)
}

/** The screen's pixel ratio in halves (1, 1.5, 2, …), so sprites are sharp and their number bounded. */
export function spriteRatio(pixelRatio = globalThis.devicePixelRatio || 1): number {
  return Math.max(1, Math.round(pixelRatio * 2) / 2)
}

/** The arrow of a status at a heading step, `ratio` device pixels per CSS pixel (cached). */
export function arrowSprite(status: number, step: number, ratio: number): HTMLCanvasElement {
  const key = `${status}:${step}:${ratio}`
  let canvas = sprites.get(key)
  if (canvas) return canvas
  canvas = document.createElement('canvas')
  canvas.width = canvas.height = Math.ceil(2 * ARROW_HALF * ratio)
  const ctx = canvas.getContext('2d')!
  ctx.scale(ratio, ratio)
  ctx.translate(ARROW_HALF, ARROW_HALF)
  ctx.rotate((step * HEADING_STEP * Math.PI) / 180)
  const side = ARROW_RADIUS * Math.sin((2 * Math.PI) / 3) * ARROW_NARROW
  ctx.beginPath()
  ctx.moveTo(0, -ARROW_RADIUS)
  ctx.lineTo(side, ARROW_RADIUS / 2)
  ctx.lineTo(-side, ARROW_RADIUS / 2)
  ctx.closePath()
  ctx.fillStyle = statusColour(status)
  ctx.fill()
  ctx.lineJoin = 'round'
  ctx.lineWidth = ARROW_STROKE
  ctx.strokeStyle = MAP_PALETTE.pointOutline
  ctx.stroke()
  sprites.set(key, canvas)
  return canvas
}
