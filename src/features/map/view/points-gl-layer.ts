import Layer from 'ol/layer/Layer'
import type { FrameState } from 'ol/Map'
import { rgbOf } from '../../../kit/palette'
import { createLayerCanvas, fitLayerCanvas, viewMoving } from './layer-canvas'
import { clipMatrix, followTransform, thinCell, thinPoints } from './points-gl'

/**
 * A map layer that draws many points straight from typed arrays with WebGL (`gl.POINTS`, one vertex per
 * point, a circle with an outline in the fragment shader): no OpenLayers feature per point and no
 * per-feature buffer building, so a million points are one upload of 8 MB of positions (and 4 MB of colours
 * when a categorized or graduated style colours them one by one). The map's pan, zoom and rotation are a
 * 3×3 matrix per frame. Positions are EPSG:3857 relative to an origin (float32 keeps sub-metre precision),
 * made by `packPositions`; colours by `pointColours`. From `THIN_FROM` points on, each view draws only the
 * points not hidden under a later one (`thinPoints`, as an index buffer), chosen again when the zoom,
 * rotation or size changes or the map is panned by more than half a view; and while the map is panned,
 * zoomed or rotated the last drawing follows it as a CSS transform (as OpenLayers' vector layers do by
 * default), the points drawn again when it stops: in software WebGL a frame of many points takes a few
 * hundred milliseconds, which no drag can wait for.
 */

/** From this many points on, a frame draws the points `thinPoints` keeps. */
export const THIN_FROM = 100_000

export interface PointsLook {
  /** Fill colour of points without a colour of their own (single symbol), '#rrggbb'. */
  fill: string
  /** Opacity of that fill, 0–1. */
  fillOpacity: number
  /** Radius in CSS pixels, outline width in CSS pixels and colour. */
  radius: number
  strokeWidth: number
  stroke: string
}

const VERTEX = `
attribute vec2 a_position;
attribute vec4 a_colour;
uniform mat3 u_matrix;
uniform float u_size;
varying vec4 v_colour;
void main() {
  vec3 p = u_matrix * vec3(a_position, 1.0);
  gl_Position = vec4(p.xy, 0.0, 1.0);
  gl_PointSize = u_size;
  v_colour = a_colour;
}`

const FRAGMENT = `
precision mediump float;
varying vec4 v_colour;
uniform vec4 u_stroke;
uniform float u_radius;
uniform float u_outer;
uniform float u_half;
void main() {
  float d = length(gl_PointCoord * 2.0 - 1.0) * u_half;
  float edge = 1.0 - smoothstep(u_outer - 0.5, u_outer + 0.5, d);
  if (edge <= 0.0) discard;
  vec4 colour = mix(v_colour, u_stroke, smoothstep(u_radius - 0.5, u_radius + 0.5, d));
  gl_FragColor = vec4(colour.rgb * colour.a * edge, colour.a * edge);
}`

function compile(gl: WebGLRenderingContext, type: number, source: string): WebGLShader {
  const shader = gl.createShader(type)!
  gl.shaderSource(shader, source)
  gl.compileShader(shader)
  if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS))
    throw new Error(`points layer shader: ${gl.getShaderInfoLog(shader) ?? 'did not compile'}`)
  return shader
}

export class PointsGlLayer extends Layer {
  private readonly container: HTMLDivElement
  private readonly canvas: HTMLCanvasElement
  private gl: WebGLRenderingContext | null = null
  private program: WebGLProgram | null = null
  /** The program's attribute and uniform locations, looked up once it is linked. */
  private locations: {
    position: number
    colour: number
    matrix: WebGLUniformLocation | null
    size: WebGLUniformLocation | null
    half: WebGLUniformLocation | null
    outer: WebGLUniformLocation | null
    radius: WebGLUniformLocation | null
    stroke: WebGLUniformLocation | null
  } | null = null
  private positionBuffer: WebGLBuffer | null = null
  private colourBuffer: WebGLBuffer | null = null
  private positions: Float32Array = new Float32Array(0)
  private colours: Uint8Array | null = null
  private origin: [number, number] = [0, 0]
  private uploaded = true
  private indexBuffer: WebGLBuffer | null = null
  private uintIndices = false
  /** The view the index buffer was chosen for, and how many points it holds. */
  private thinnedFor = ''
  private thinnedAt: [number, number] = [NaN, NaN]
  private thinned = 0
  private drawn = 0
  /** The view the canvas was last drawn for (coordinate-to-pixel transform), and whether it is out of date. */
  private drawnFor: number[] | null = null
  private stale = true
  private look: PointsLook = { fill: '#ff00ff', fillOpacity: 1, radius: 5, strokeWidth: 1, stroke: '#ffffff' }

  constructor(options: { properties?: Record<string, unknown>; visible?: boolean } = {}) {
    super({ ...options, render: (frameState: FrameState) => this.draw(frameState) })
    const made = createLayerCanvas('geo-points-gl')
    this.container = made.container
    this.canvas = made.canvas
  }

  /** The points to draw: positions relative to `origin`, and a colour per point (RGBA bytes) or null. */
  setPoints(positions: Float32Array, origin: [number, number], colours: Uint8Array | null): void {
    this.positions = positions
    this.origin = origin
    this.colours = colours
    this.uploaded = false
    this.thinnedFor = ''
    this.stale = true
    this.changed()
  }

  /** Colours of the current points (after a style change), or null for the look's fill. */
  setColours(colours: Uint8Array | null): void {
    this.colours = colours
    this.uploaded = false
    this.stale = true
    this.changed()
  }

  setLook(look: PointsLook): void {
    this.look = look
    this.stale = true
    this.changed()
  }

  get count(): number {
    return this.positions.length / 2
  }

  /** How many points the last frame drew (fewer than `count` when thinned or out of view). */
  get drawnCount(): number {
    return this.drawn
  }

  private context(): WebGLRenderingContext | null {
    if (this.gl) return this.gl
    const gl = this.canvas.getContext('webgl', {
      premultipliedAlpha: true,
      // Kept so the map's image export (and a screenshot) can read the canvas after the frame.
      preserveDrawingBuffer: true,
      antialias: false,
    })
    if (!gl) return null
    const program = gl.createProgram()!
    gl.attachShader(program, compile(gl, gl.VERTEX_SHADER, VERTEX))
    gl.attachShader(program, compile(gl, gl.FRAGMENT_SHADER, FRAGMENT))
    gl.linkProgram(program)
    if (!gl.getProgramParameter(program, gl.LINK_STATUS))
      throw new Error(`points layer program: ${gl.getProgramInfoLog(program) ?? 'did not link'}`)
    this.gl = gl
    this.program = program
    const uniform = (name: string) => gl.getUniformLocation(program, name)
    this.locations = {
      position: gl.getAttribLocation(program, 'a_position'),
      colour: gl.getAttribLocation(program, 'a_colour'),
      matrix: uniform('u_matrix'),
      size: uniform('u_size'),
      half: uniform('u_half'),
      outer: uniform('u_outer'),
      radius: uniform('u_radius'),
      stroke: uniform('u_stroke'),
    }
    this.positionBuffer = gl.createBuffer()
    this.colourBuffer = gl.createBuffer()
    this.indexBuffer = gl.createBuffer()
    this.uintIndices = gl.getExtension('OES_element_index_uint') !== null
    return gl
  }

  /**
   * Make the WebGL context and draw one point both ways a frame draws (all points, and the index buffer of
   * a thinned view), then clear: called while the page is idle, so that the first frame of a large result
   * does not also wait for the context, the shaders and (in software WebGL) their first compilation.
   */
  warmUp(): void {
    const gl = this.context()
    if (!gl || !this.program || this.drawnFor) return
    this.prepare(gl, {
      positions: new Float32Array(2),
      colours: null,
      fill: [0, 0, 0, 0],
      matrix: new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1]),
      outer: 6,
      inner: 5,
      stroke: [0, 0, 0, 0],
    })
    gl.drawArrays(gl.POINTS, 0, 1)
    if (this.uintIndices) {
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, this.indexBuffer)
      gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, new Uint32Array(1), gl.DYNAMIC_DRAW)
      gl.drawElements(gl.POINTS, 1, gl.UNSIGNED_INT, 0)
    }
    gl.clearColor(0, 0, 0, 0)
    gl.clear(gl.COLOR_BUFFER_BIT)
    gl.flush()
    // The next points are uploaded whole, whatever this left in the buffers.
    this.uploaded = false
    this.thinnedFor = ''
  }

  /**
   * The program, its attributes and uniforms as a frame (or the warm-up) draws with them: `positions` and
   * `colours.bytes` uploaded when given to upload; without colours, every point takes `fill`. `outer` is the
   * circle's radius with its outline and `inner` where the outline starts, in device pixels.
   */
  private prepare(
    gl: WebGLRenderingContext,
    frame: {
      positions: Float32Array | null
      colours: { bytes: Uint8Array; upload: boolean } | null
      fill: [number, number, number, number]
      matrix: Float32Array
      outer: number
      inner: number
      stroke: [number, number, number, number]
    },
  ): void {
    const at = this.locations!
    gl.useProgram(this.program)
    gl.bindBuffer(gl.ARRAY_BUFFER, this.positionBuffer)
    if (frame.positions) gl.bufferData(gl.ARRAY_BUFFER, frame.positions, gl.STATIC_DRAW)
    gl.enableVertexAttribArray(at.position)
    gl.vertexAttribPointer(at.position, 2, gl.FLOAT, false, 0, 0)
    if (frame.colours) {
      gl.bindBuffer(gl.ARRAY_BUFFER, this.colourBuffer)
      if (frame.colours.upload) gl.bufferData(gl.ARRAY_BUFFER, frame.colours.bytes, gl.STATIC_DRAW)
      gl.enableVertexAttribArray(at.colour)
      gl.vertexAttribPointer(at.colour, 4, gl.UNSIGNED_BYTE, true, 0, 0)
    } else {
      gl.disableVertexAttribArray(at.colour)
      gl.vertexAttrib4f(at.colour, ...frame.fill)
    }
    gl.uniformMatrix3fv(at.matrix, false, frame.matrix)
    // Two more pixels than the circle, for its smoothed edge.
    const size = 2 * frame.outer + 2
    gl.uniform1f(at.size, size)
    gl.uniform1f(at.half, size / 2)
    gl.uniform1f(at.outer, frame.outer)
    gl.uniform1f(at.radius, frame.inner)
    gl.uniform4f(at.stroke, ...frame.stroke)
    gl.enable(gl.BLEND)
    gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA)
  }

  private draw(frameState: FrameState): HTMLElement {
    const { width, height, resized } = fitLayerCanvas(frameState, this.container, this.canvas)
    // A new size clears the canvas: nothing is left to follow the map.
    if (resized) this.stale = true
    const [w, h] = frameState.size as [number, number]
    const ratio = frameState.pixelRatio
    if (viewMoving(frameState) && !this.stale && this.drawnFor && this.count >= THIN_FROM) {
      // The map moves: the last drawing follows it; the points are drawn again when it stops.
      this.canvas.style.transform = followTransform(this.drawnFor, frameState.coordinateToPixelTransform)
      return this.container
    }
    this.canvas.style.transform = ''
    this.drawnFor = frameState.coordinateToPixelTransform.slice()
    this.stale = false
    const gl = this.context()
    if (!gl || !this.program) return this.container
    gl.viewport(0, 0, width, height)
    gl.clearColor(0, 0, 0, 0)
    gl.clear(gl.COLOR_BUFFER_BIT)
    const count = this.count
    this.drawn = 0
    if (count === 0) return this.container
    const { radius, strokeWidth } = this.look
    const outer = (radius + Math.max(0, strokeWidth)) * ratio
    const [fr, fg, fb] = rgbOf(this.look.fill)
    const [sr, sg, sb] = rgbOf(this.look.stroke)
    const matrix = clipMatrix(frameState.coordinateToPixelTransform, this.origin, [w, h])
    this.prepare(gl, {
      positions: this.uploaded ? null : this.positions,
      colours: this.colours && { bytes: this.colours, upload: !this.uploaded },
      fill: [fr / 255, fg / 255, fb / 255, this.look.fillOpacity],
      matrix,
      outer,
      inner: strokeWidth > 0 ? radius * ratio : outer + 1,
      stroke: [sr / 255, sg / 255, sb / 255, 1],
    })
    this.uploaded = true
    if (count >= THIN_FROM && this.uintIndices) {
      const view = frameState.viewState
      const cell = thinCell(outer, ratio)
      const key = `${view.resolution}|${view.rotation}|${width}|${height}|${cell}`
      const [cx, cy] = view.center as [number, number]
      const half = 0.5 * Math.min(w, h) * view.resolution
      const moved = !(Math.abs(cx - this.thinnedAt[0]) <= half && Math.abs(cy - this.thinnedAt[1]) <= half)
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, this.indexBuffer)
      if (key !== this.thinnedFor || moved) {
        const indices = thinPoints(this.positions, matrix, width, height, cell)
        gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, indices, gl.DYNAMIC_DRAW)
        this.thinnedFor = key
        this.thinnedAt = [cx, cy]
        this.thinned = indices.length
      }
      gl.drawElements(gl.POINTS, this.thinned, gl.UNSIGNED_INT, 0)
      this.drawn = this.thinned
    } else {
      gl.drawArrays(gl.POINTS, 0, count)
      this.drawn = count
    }
    return this.container
  }

  override disposeInternal(): void {
    const gl = this.gl
    if (gl) {
      gl.deleteBuffer(this.positionBuffer)
      gl.deleteBuffer(this.colourBuffer)
      gl.deleteBuffer(this.indexBuffer)
      gl.deleteProgram(this.program)
      gl.getExtension('WEBGL_lose_context')?.loseContext()
    }
    this.gl = null
    super.disposeInternal()
  }
}
