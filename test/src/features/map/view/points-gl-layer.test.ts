import type { FrameState } from 'ol/Map'
import ViewHint from 'ol/ViewHint'
import { describe, expect, it } from 'vitest'
import { PointsGlLayer, THIN_FROM } from '../../../../../src/features/map/view/points-gl-layer'

/** A frame of a 1400 × 900 map: OpenLayers' coordinate-to-pixel transform, and whether the view moves. */
function frame(shiftX: number, hints: { interacting?: boolean; animating?: boolean } = {}): FrameState {
  const viewHints = [0, 0]
  if (hints.animating) viewHints[ViewHint.ANIMATING] = 1
  if (hints.interacting) viewHints[ViewHint.INTERACTING] = 1
  return {
    size: [1400, 900],
    pixelRatio: 1,
    layerIndex: 0,
    layerStatesArray: [{ opacity: 1 }],
    viewHints,
    coordinateToPixelTransform: [0.001, 0, 0, -0.001, 700 + shiftX, 450],
    viewState: { resolution: 1000, rotation: 0, center: [0, 0] },
  } as unknown as FrameState
}

function layerOf(count: number): { layer: PointsGlLayer; canvas: () => HTMLCanvasElement } {
  const layer = new PointsGlLayer()
  layer.setPoints(new Float32Array(2 * count), [0, 0], null)
  const container = layer.render(frame(0), null as unknown as HTMLElement) as HTMLElement
  return { layer, canvas: () => container.querySelector('canvas')! }
}

describe('the WebGL points layer while the map moves', () => {
  it('moves its last drawing with the map while it is dragged or animated, and draws again when it stops', () => {
    const { layer, canvas } = layerOf(THIN_FROM)
    layer.render(frame(30, { interacting: true }), null as unknown as HTMLElement)
    expect(canvas().style.transform).toBe('matrix(1, 0, 0, 1, 30, 0)')
    layer.render(frame(-12, { animating: true }), null as unknown as HTMLElement)
    expect(canvas().style.transform).toBe('matrix(1, 0, 0, 1, -12, 0)')
    layer.render(frame(-12), null as unknown as HTMLElement)
    expect(canvas().style.transform).toBe('')
  })

  it('draws new points, a new look or a new size at once, even while the map moves', () => {
    const { layer, canvas } = layerOf(THIN_FROM)
    layer.setLook({ fill: '#00ff00', fillOpacity: 1, radius: 3, strokeWidth: 0, stroke: '#ffffff' })
    layer.render(frame(30, { interacting: true }), null as unknown as HTMLElement)
    expect(canvas().style.transform).toBe('')
    layer.setPoints(new Float32Array(2 * THIN_FROM), [5, 5], null)
    layer.render(frame(40, { interacting: true }), null as unknown as HTMLElement)
    expect(canvas().style.transform).toBe('')
    layer.render(frame(50, { interacting: true }), null as unknown as HTMLElement)
    expect(canvas().style.transform).toBe('matrix(1, 0, 0, 1, 10, 0)')
    const resized = frame(60, { interacting: true })
    resized.size = [1000, 900]
    layer.render(resized, null as unknown as HTMLElement)
    expect(canvas().style.transform).toBe('')
  })

  it('draws fewer points than THIN_FROM in every frame', () => {
    const { layer, canvas } = layerOf(THIN_FROM - 1)
    layer.render(frame(30, { interacting: true }), null as unknown as HTMLElement)
    expect(canvas().style.transform).toBe('')
  })
})
