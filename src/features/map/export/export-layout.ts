import type { LegendItem } from '../layers/layer-model'

/**
 * The pure parts of a map export: page sizes, the scale bar's nice length, and the legend's lines.
 * Drawing them on a canvas is `map-export.ts`.
 */

/** Paper sizes in millimetres (portrait). */
export const PAPER_MM = { A4: [210, 297], A3: [297, 420], Letter: [215.9, 279.4] } as const
export type Paper = keyof typeof PAPER_MM | 'screen'
export type Orientation = 'landscape' | 'portrait'
/** CSS pixels are 1/96 inch: a DPI is a pixel ratio over them. */
export const CSS_DPI = 96
export const DPI_CHOICES = [96, 150, 200, 300] as const

export interface ExportOptions {
  format: 'png' | 'pdf'
  paper: Paper
  orientation: Orientation
  dpi: number
  title: string
  legend: boolean
  scaleBar: boolean
  northArrow: boolean
  attribution: boolean
}

/** The page in CSS pixels (the map's layout size) and in device pixels (the image), and millimetres. */
export function pageSize(
  options: Pick<ExportOptions, 'paper' | 'orientation' | 'dpi'>,
  screen: readonly [number, number],
): { css: [number, number]; pixels: [number, number]; mm: [number, number]; ratio: number } {
  const ratio = options.dpi / CSS_DPI
  let mm: [number, number]
  if (options.paper === 'screen') {
    mm = [(screen[0] * 25.4) / CSS_DPI, (screen[1] * 25.4) / CSS_DPI]
  } else {
    const [short, long] = PAPER_MM[options.paper]
    mm = options.orientation === 'landscape' ? [long, short] : [short, long]
  }
  const css: [number, number] =
    options.paper === 'screen'
      ? [Math.round(screen[0]), Math.round(screen[1])]
      : [Math.round((mm[0] * CSS_DPI) / 25.4), Math.round((mm[1] * CSS_DPI) / 25.4)]
  return { css, pixels: [Math.round(css[0] * ratio), Math.round(css[1] * ratio)], mm, ratio }
}

/** The largest image edge an export may have (browsers refuse bigger canvases). */
export const MAX_EXPORT_PIXELS = 8000

/** A scale bar no longer than `maxPx`: a round length (1, 2 or 5 × 10ⁿ m) and its width in CSS pixels. */
export function niceScale(
  metresPerPixel: number,
  maxPx: number,
): { metres: number; px: number; label: string } {
  const most = metresPerPixel * maxPx
  const power = 10 ** Math.floor(Math.log10(most))
  const metres = [5, 2, 1].map((m) => m * power).find((m) => m <= most) ?? power
  const label =
    metres >= 1000 ? `${(metres / 1000).toLocaleString('en-US')} km` : `${metres.toLocaleString('en-US')} m`
  return { metres, px: metres / metresPerPixel, label }
}

export interface LegendBlock {
  title: string
  items: LegendItem[]
}

/** The legend's blocks: visible layers with a legend, top of the list first, at most `maxLines` lines. */
export function legendBlocks(
  layers: ReadonlyArray<{ title: string; visible: boolean; legend: LegendItem[] }>,
  maxLines = 24,
): LegendBlock[] {
  const blocks: LegendBlock[] = []
  let lines = 0
  for (const layer of layers) {
    if (!layer.visible || layer.legend.length === 0 || lines >= maxLines) continue
    if (layer.legend.length === 1) {
      // One symbol: the layer's own name is its label.
      blocks.push({ title: '', items: [{ ...layer.legend[0]!, label: layer.title }] })
      lines += 1
    } else {
      const items = layer.legend.slice(0, Math.max(1, maxLines - lines - 1))
      blocks.push({ title: layer.title, items })
      lines += 1 + items.length
    }
  }
  return blocks
}
