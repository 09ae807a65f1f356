import type { FrameState } from 'ol/Map'
import ViewHint from 'ol/ViewHint'

/**
 * The canvas of a layer that draws itself (OpenLayers' `render` option): a container the map places among
 * its layers (class `ol-layer`, so the map export composes it) holding one canvas the size of the map.
 */
export function createLayerCanvas(className: string): {
  container: HTMLDivElement
  canvas: HTMLCanvasElement
} {
  const container = document.createElement('div')
  const canvas = document.createElement('canvas')
  container.className = `ol-layer ${className}`
  container.style.cssText = 'position:absolute;inset:0;pointer-events:none'
  canvas.style.cssText = 'position:absolute;left:0;top:0;transform-origin:0 0'
  container.appendChild(canvas)
  return { container, canvas }
}

/**
 * Fit the layer's canvas to a frame: the layer's opacity on its container, the canvas sized in device pixels
 * (a new size clears it: `resized` says so).
 */
export function fitLayerCanvas(
  frameState: FrameState,
  container: HTMLElement,
  canvas: HTMLCanvasElement,
): { width: number; height: number; resized: boolean } {
  const layerState = frameState.layerStatesArray[frameState.layerIndex]
  container.style.opacity = String(layerState?.opacity ?? 1)
  const [w, h] = frameState.size as [number, number]
  const ratio = frameState.pixelRatio
  const width = Math.round(w * ratio)
  const height = Math.round(h * ratio)
  const resized = canvas.width !== width || canvas.height !== height
  if (resized) {
    canvas.width = width
    canvas.height = height
    canvas.style.width = `${w}px`
    canvas.style.height = `${h}px`
  }
  return { width, height, resized }
}

/** Whether the map is being panned, zoomed or rotated (by a hand or an animation) in this frame. */
export function viewMoving(frameState: FrameState): boolean {
  const hints = frameState.viewHints
  return (hints[ViewHint.ANIMATING] ?? 0) > 0 || (hints[ViewHint.INTERACTING] ?? 0) > 0
}
