import type OlMap from 'ol/Map'
import { getCenter } from 'ol/extent'
import { toLonLat } from 'ol/proj'
import { resolvedTheme } from '../../../kit/theme'
import { BASEMAP_THEMES } from '../view/basemap-style'
import type { LegendItem } from '../layers/layer-model'
import {
  legendBlocks,
  MAX_EXPORT_PIXELS,
  niceScale,
  pageSize,
  type ExportOptions,
  type LegendBlock,
} from './export-layout'

/**
 * "Export map": the current view drawn again at the page's size and DPI (symbols scaled with the DPI),
 * the layers' canvases composed into one image, then the title, legend, scale bar, north arrow and
 * attribution drawn over it. PNG as is; PDF with the image on a page of the chosen paper (jsPDF).
 */

export interface ExportLayer {
  title: string
  visible: boolean
  legend: LegendItem[]
}

export interface ExportResult {
  blob: Blob
  width: number
  height: number
  ms: number
}

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif'
/** The map's pixel ratio, read at every frame; ol 10 has no public setter. */
type PixelRatioHolder = { pixelRatio_: number }

/** Draw the map at another size and pixel ratio, wait for it, compose its canvases; the view comes back. */
async function renderMap(map: OlMap, css: [number, number], ratio: number): Promise<HTMLCanvasElement> {
  const view = map.getView()
  const size = map.getSize() as [number, number] | undefined
  const resolution = view.getResolution()
  if (!size || !resolution) throw new Error('the map is not on screen')
  const privateMap = map as unknown as PixelRatioHolder
  const ratioBefore = privateMap.pixelRatio_
  // The page shows at least what the screen shows, around the same centre.
  const scale = Math.max(size[0] / css[0], size[1] / css[1])
  try {
    const drawn = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the map took longer than 60 s to draw')), 60_000)
      map.once('rendercomplete', () => {
        clearTimeout(timer)
        resolve()
      })
    })
    privateMap.pixelRatio_ = ratio
    map.setSize(css)
    view.setResolution(resolution * scale)
    map.render()
    await drawn
    return compose(map, css, ratio)
  } finally {
    privateMap.pixelRatio_ = ratioBefore
    map.setSize(size)
    view.setResolution(resolution)
    map.render()
  }
}

function compose(map: OlMap, css: [number, number], ratio: number): HTMLCanvasElement {
  const out = document.createElement('canvas')
  out.width = Math.round(css[0] * ratio)
  out.height = Math.round(css[1] * ratio)
  const ctx = out.getContext('2d')!
  ctx.fillStyle = BASEMAP_THEMES[resolvedTheme()].sea
  ctx.fillRect(0, 0, out.width, out.height)
  const canvases =
    map.getViewport()?.querySelectorAll<HTMLCanvasElement>('.ol-layer canvas, canvas.ol-layer') ?? []
  for (const canvas of canvases) {
    if (canvas.width === 0 || canvas.height === 0) continue
    const parent = canvas.parentElement
    const opacity = parent?.style.opacity || canvas.style.opacity
    ctx.globalAlpha = opacity === '' || opacity === undefined ? 1 : Number(opacity)
    const transform = /^matrix\(([^)]*)\)$/.exec(canvas.style.transform)
    const matrix = transform
      ? transform[1]!.split(',').map(Number)
      : [
          parseFloat(canvas.style.width) / canvas.width,
          0,
          0,
          parseFloat(canvas.style.height) / canvas.height,
          0,
          0,
        ]
    ctx.setTransform(...(matrix.map((m) => m * ratio) as [number, number, number, number, number, number]))
    const background = parent?.style.backgroundColor
    if (background) {
      ctx.fillStyle = background
      ctx.fillRect(0, 0, canvas.width, canvas.height)
    }
    // What the screen shows: a layer's CSS filter (the dark theme's darkened tiles) applies here too.
    const filter = parent ? getComputedStyle(parent).filter : 'none'
    ctx.filter = filter && filter !== 'none' ? filter : 'none'
    ctx.drawImage(canvas, 0, 0)
    ctx.filter = 'none'
  }
  ctx.setTransform(1, 0, 0, 1, 0, 0)
  ctx.globalAlpha = 1
  return out
}

function box(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, u: number): void {
  ctx.fillStyle = 'rgba(255, 255, 255, 0.9)'
  ctx.strokeStyle = 'rgba(17, 24, 39, 0.35)'
  ctx.lineWidth = u
  ctx.beginPath()
  ctx.roundRect(x, y, w, h, 4 * u)
  ctx.fill()
  ctx.stroke()
}

function swatch(ctx: CanvasRenderingContext2D, item: LegendItem, x: number, y: number, u: number): void {
  const s = item.swatch
  const size = 12 * u
  ctx.save()
  if (s.shape === 'point') {
    ctx.beginPath()
    ctx.arc(x + size / 2, y + size / 2, Math.min(size / 2, Math.max(2, s.size ?? 4) * u), 0, Math.PI * 2)
    ctx.fillStyle = s.fill ?? '#000000'
    ctx.fill()
    if (s.stroke) {
      ctx.strokeStyle = s.stroke
      ctx.lineWidth = u
      ctx.stroke()
    }
  } else if (s.shape === 'line') {
    ctx.strokeStyle = s.stroke ?? '#000000'
    ctx.lineWidth = Math.max(1, s.size ?? 2) * u
    ctx.beginPath()
    ctx.moveTo(x, y + size / 2)
    ctx.lineTo(x + size, y + size / 2)
    ctx.stroke()
  } else if (s.shape === 'ramp') {
    const colours = s.colours ?? []
    colours.forEach((c, i) => {
      ctx.fillStyle = c
      ctx.fillRect(x + (i * size * 2) / colours.length, y, (size * 2) / colours.length + 0.5, size)
    })
  } else {
    ctx.fillStyle = s.fill ?? '#cccccc'
    ctx.globalAlpha = 0.7
    ctx.fillRect(x, y, size, size)
    ctx.globalAlpha = 1
    ctx.strokeStyle = s.stroke ?? s.fill ?? '#000000'
    ctx.lineWidth = u
    ctx.strokeRect(x, y, size, size)
  }
  ctx.restore()
}

function drawLegend(ctx: CanvasRenderingContext2D, blocks: LegendBlock[], height: number, u: number): void {
  if (blocks.length === 0) return
  const pad = 8 * u
  const line = 17 * u
  ctx.font = `${12 * u}px ${FONT}`
  const texts = blocks.flatMap((b) => [b.title, ...b.items.map((i) => i.label)]).filter(Boolean)
  const width = Math.min(320 * u, Math.max(...texts.map((t) => ctx.measureText(t).width)) + 40 * u + pad * 2)
  const lines = blocks.reduce((n, b) => n + (b.title ? 1 : 0) + b.items.length, 0)
  const h = lines * line + pad * 2 + line
  const x = 12 * u
  let y = height - h - 30 * u
  box(ctx, x, y, width, h, u)
  y += pad
  ctx.fillStyle = '#111827'
  ctx.font = `600 ${13 * u}px ${FONT}`
  ctx.textBaseline = 'top'
  ctx.fillText('Legend', x + pad, y)
  y += line
  for (const block of blocks) {
    if (block.title) {
      ctx.font = `600 ${12 * u}px ${FONT}`
      ctx.fillStyle = '#111827'
      ctx.fillText(block.title, x + pad, y + 1 * u, width - pad * 2)
      y += line
    }
    ctx.font = `${12 * u}px ${FONT}`
    for (const item of block.items) {
      swatch(ctx, item, x + pad, y + 1 * u, u)
      ctx.fillStyle = '#111827'
      const indent = item.swatch.shape === 'ramp' ? 32 * u : 20 * u
      ctx.fillText(item.label, x + pad + indent, y + 1 * u, width - pad * 2 - indent)
      y += line
    }
  }
}

function drawScaleBar(
  ctx: CanvasRenderingContext2D,
  map: OlMap,
  css: [number, number],
  ratio: number,
  scale: number,
): void {
  const view = map.getView()
  const resolution = (view.getResolution() ?? 1) * scale
  const [, lat] = toLonLat(getCenter(view.calculateExtent(map.getSize())))
  const metresPerCssPixel = resolution * Math.cos(((lat ?? 0) * Math.PI) / 180)
  const bar = niceScale(metresPerCssPixel, 160)
  const u = ratio
  const w = bar.px * u
  const x = css[0] * u - w - 24 * u
  const y = css[1] * u - 44 * u
  box(ctx, x - 8 * u, y - 18 * u, w + 16 * u, 32 * u, u)
  ctx.fillStyle = '#111827'
  ctx.fillRect(x, y, w / 2, 5 * u)
  ctx.strokeStyle = '#111827'
  ctx.lineWidth = u
  ctx.strokeRect(x, y, w, 5 * u)
  ctx.font = `${11 * u}px ${FONT}`
  ctx.textBaseline = 'bottom'
  ctx.textAlign = 'center'
  ctx.fillText(bar.label, x + w / 2, y - 2 * u)
  ctx.textAlign = 'start'
}

function drawNorthArrow(ctx: CanvasRenderingContext2D, css: [number, number], u: number, top: number): void {
  const x = css[0] * u - 34 * u
  const y = top + 14 * u
  box(ctx, x - 14 * u, y - 6 * u, 28 * u, 44 * u, u)
  ctx.fillStyle = '#111827'
  ctx.beginPath()
  ctx.moveTo(x, y + 14 * u)
  ctx.lineTo(x - 8 * u, y + 34 * u)
  ctx.lineTo(x, y + 28 * u)
  ctx.lineTo(x + 8 * u, y + 34 * u)
  ctx.closePath()
  ctx.fill()
  ctx.font = `700 ${12 * u}px ${FONT}`
  ctx.textAlign = 'center'
  ctx.textBaseline = 'top'
  ctx.fillText('N', x, y)
  ctx.textAlign = 'start'
}

function attributionsOf(map: OlMap): string {
  const texts = Array.from(map.getViewport()?.querySelectorAll<HTMLElement>('.ol-attribution li') ?? [])
    .map((li) => li.textContent?.trim() ?? '')
    .filter(Boolean)
  return [...new Set(texts)].join(' · ')
}

/** The current view as a PNG or PDF at the options' page, DPI and decorations. */
export async function exportMap(
  map: OlMap,
  layers: readonly ExportLayer[],
  options: ExportOptions,
): Promise<ExportResult> {
  const started = performance.now()
  const screen = (map.getSize() ?? [800, 600]) as [number, number]
  const page = pageSize(options, screen)
  if (Math.max(...page.pixels) > MAX_EXPORT_PIXELS)
    throw new Error(
      `${page.pixels[0]} × ${page.pixels[1]} pixels is more than this export can draw (${MAX_EXPORT_PIXELS} per side); choose a lower DPI or a smaller page`,
    )
  const scale = Math.max(screen[0] / page.css[0], screen[1] / page.css[1])
  const attribution = attributionsOf(map)
  const canvas = await renderMap(map, page.css, page.ratio)
  const ctx = canvas.getContext('2d')!
  const u = page.ratio
  let top = 10 * u
  if (options.title.trim()) {
    ctx.font = `600 ${20 * u}px ${FONT}`
    const w = Math.min(page.css[0] * u - 24 * u, ctx.measureText(options.title).width + 24 * u)
    box(ctx, 12 * u, top, w, 36 * u, u)
    ctx.fillStyle = '#111827'
    ctx.textBaseline = 'middle'
    ctx.fillText(options.title.trim(), 24 * u, top + 18 * u, w - 24 * u)
    top += 0
  }
  if (options.northArrow) drawNorthArrow(ctx, page.css, u, top)
  if (options.legend) drawLegend(ctx, legendBlocks(layers), page.pixels[1], u)
  if (options.scaleBar) drawScaleBar(ctx, map, page.css, u, scale)
  if (options.attribution && attribution) {
    ctx.font = `${10 * u}px ${FONT}`
    const w = ctx.measureText(attribution).width + 12 * u
    ctx.fillStyle = 'rgba(255, 255, 255, 0.85)'
    ctx.fillRect(page.pixels[0] - w, page.pixels[1] - 16 * u, w, 16 * u)
    ctx.fillStyle = '#374151'
    ctx.textBaseline = 'middle'
    ctx.fillText(attribution, page.pixels[0] - w + 6 * u, page.pixels[1] - 8 * u)
  }
  let blob: Blob
  if (options.format === 'png') {
    blob = await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob(
        (b) => (b ? resolve(b) : reject(new Error('the image could not be encoded'))),
        'image/png',
      ),
    )
  } else {
    const { jsPDF } = await import('jspdf')
    const [w, h] = page.mm
    const pdf = new jsPDF({
      orientation: w > h ? 'landscape' : 'portrait',
      unit: 'mm',
      format: [w, h],
      compress: true,
    })
    pdf.setProperties({ title: options.title || 'Map', creator: 'Geo Analyst' })
    pdf.addImage(canvas, 'PNG', 0, 0, w, h, undefined, 'FAST')
    blob = pdf.output('blob')
  }
  return { blob, width: canvas.width, height: canvas.height, ms: performance.now() - started }
}
