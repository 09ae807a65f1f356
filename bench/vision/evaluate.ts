import sharp from 'sharp'
import { blurImageFile, type BlurOptions } from '../../electron/local-service/vision/engine/blur-image'
import type { PlateOcr } from '../../electron/local-service/vision/engine/ocr'
import { readLines } from '../../electron/local-service/vision/engine/plate-finder'
import { normalizePlateText } from '../../electron/local-service/vision/engine/plate-grammar'
import type { Raster } from '../../electron/local-service/vision/engine/raster'
import type { SetImage } from './make-set'
import type { PlateLabel } from './scene'
import { quadCoverage } from './warp'

/**
 * Scoring of one pipeline over the labelled set. A plate counts as found when ≥ 90 % of its area is
 * blurred; a distractor (shop-sign text) counts as blurred when ≥ 25 % of its text box is; a blurred
 * region touching no plate is a false blur. "Readable" means the recogniser reads the plate's crop
 * within 2 edits of its registration.
 */

export function levenshtein(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)])
  for (let j = 1; j <= b.length; j++) d[0]![j] = j
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      d[i]![j] = Math.min(
        d[i - 1]![j]! + 1,
        d[i]![j - 1]! + 1,
        d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      )
  return d[a.length]![b.length]!
}

async function decodeRgb(bytes: Uint8Array): Promise<Raster> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height, channels: 3 }
}

/** Can the recogniser read the plate from the image (its crop, and for two-line plates its two halves)? */
async function readable(
  ocr: PlateOcr,
  image: Raster,
  plate: PlateLabel,
  panorama: boolean,
): Promise<boolean> {
  const xs = plate.quad.map((q) => q[0])
  const ys = plate.quad.map((q) => q[1])
  const x0 = Math.min(...xs)
  const y0 = Math.min(...ys)
  const w = Math.max(...xs) - x0
  const h = Math.max(...ys) - y0
  const rect = { x: x0 - w * 0.05, y: y0 - h * 0.1, w: w * 1.1, h: h * 1.2 }
  const rects = [
    rect,
    { ...rect, h: rect.h * 0.55 },
    { ...rect, y: rect.y + rect.h * 0.45, h: rect.h * 0.55 },
  ]
  const [whole, top, bottom] = await readLines(ocr, image, rects, panorama)
  const truth = plate.plate
  const near = (t: string): boolean => levenshtein(normalizePlateText(t).replace(/^IND/, ''), truth) <= 2
  return near(whole!.text) || (plate.layout === 'two-line' && near(top!.text + bottom!.text))
}

type Box = { x: number; y: number; w: number; h: number }

function covered(boxes: readonly Box[]) {
  return (x: number, y: number): boolean =>
    boxes.some((b) => x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h)
}

function rectCoverage(r: Box, inside: (x: number, y: number) => boolean): number {
  let n = 0
  let hit = 0
  const step = Math.max(1, Math.min(r.w, r.h) / 8)
  for (let y = r.y + step / 2; y < r.y + r.h; y += step)
    for (let x = r.x + step / 2; x < r.x + r.w; x += step) {
      n++
      if (inside(Math.floor(x), Math.floor(y))) hit++
    }
  return n ? hit / n : 0
}

export interface Count {
  n: number
  found: number
}

export interface Tally {
  plates: number
  found: number
  readableBefore: number
  readableAfter: number
  /** Plates counted as found (≥ 90 % blurred) that the recogniser still reads: must be 0. */
  readableAfterFound: number
  distractors: number
  distractorsBlurred: number
  /** Blurred regions that touch no plate, and the images. */
  falseBlurs: number
  images: number
  allTextFound: number
  allTextDistractors: number
  msPerMp: number[]
  pano8kMs: number[]
  bySize: Map<string, Count>
  byPart: Map<string, Count>
  byLayout: Map<string, Count>
  /** What the two-scale pipeline looked at, summed over the images. */
  search: { proposals: number; fineTiles: number }
}

export const SIZE_BANDS = ['20–40 px', '40–80 px', '80–120 px', '120–200 px'] as const

export function sizeBand(w: number): string {
  if (w < 40) return SIZE_BANDS[0]
  if (w < 80) return SIZE_BANDS[1]
  if (w < 120) return SIZE_BANDS[2]
  return SIZE_BANDS[3]
}

function emptyTally(): Tally {
  return {
    plates: 0,
    found: 0,
    readableBefore: 0,
    readableAfter: 0,
    readableAfterFound: 0,
    distractors: 0,
    distractorsBlurred: 0,
    falseBlurs: 0,
    images: 0,
    allTextFound: 0,
    allTextDistractors: 0,
    msPerMp: [],
    pano8kMs: [],
    bySize: new Map(),
    byPart: new Map(),
    byLayout: new Map(),
    search: { proposals: 0, fineTiles: 0 },
  }
}

function count(map: Map<string, Count>, key: string, found: boolean): void {
  const e = map.get(key) ?? { n: 0, found: 0 }
  e.n++
  if (found) e.found++
  map.set(key, e)
}

/** Whether each plate of an image is readable before blurring: the same for every pipeline, so asked once. */
const readableCache = new Map<string, boolean[]>()

export async function evaluate(
  ocr: PlateOcr,
  labels: readonly SetImage[],
  options: BlurOptions,
  progress: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Promise<Tally> {
  const t = emptyTally()
  for (const [i, label] of labels.entries()) {
    const started = performance.now()
    const outcome = await blurImageFile(ocr, label.path, options)
    const ms = performance.now() - started
    t.images++
    t.msPerMp.push(ms / ((label.width * label.height) / 1e6))
    if (label.width === 8000) t.pano8kMs.push(ms)
    if (outcome.search) {
      t.search.proposals += outcome.search.proposals
      t.search.fineTiles += outcome.search.fineTiles
    }
    const wrap = label.panorama ? label.width : undefined
    const inside = covered(outcome.boxes)
    const margin = options.margin ?? 0.3
    const allText = covered(
      outcome.textLines.flatMap((l) => {
        const d = Math.max(2, l.h * margin)
        const g = { x: l.x - d, y: l.y - d, w: l.w + 2 * d, h: l.h + 2 * d }
        return label.panorama && g.x + g.w > label.width ? [g, { ...g, x: g.x - label.width }] : [g]
      }),
    )
    let before = readableCache.get(label.path)
    if (!before) {
      const image = await decodeRgb(new Uint8Array(await sharp(label.path).toBuffer()))
      before = []
      for (const p of label.plates) before.push(await readable(ocr, image, p, label.panorama))
      readableCache.set(label.path, before)
    }
    const after = await decodeRgb(outcome.bytes)
    for (const [k, p] of label.plates.entries()) {
      t.plates++
      const found = quadCoverage(p.quad, inside, wrap) >= 0.9
      if (found) t.found++
      if (quadCoverage(p.quad, allText, wrap) >= 0.9) t.allTextFound++
      count(t.bySize, sizeBand(p.widthPx), found)
      count(t.byPart, label.part, found)
      count(t.byLayout, `${p.layout} ${p.colour}`, found)
      if (before[k]) t.readableBefore++
      if (await readable(ocr, after, p, label.panorama)) {
        t.readableAfter++
        if (found) t.readableAfterFound++
      }
    }
    for (const box of outcome.boxes) {
      const onPlate = label.plates.some((p) => {
        const xs = p.quad.map((q) => q[0])
        const ys = p.quad.map((q) => q[1])
        const px0 = Math.min(...xs)
        const px1 = Math.max(...xs)
        const hitX = (x0: number, x1: number) => x0 < box.x + box.w && x1 > box.x
        const hitY = Math.min(...ys) < box.y + box.h && Math.max(...ys) > box.y
        return hitY && (hitX(px0, px1) || (wrap !== undefined && hitX(px0 - wrap, px1 - wrap)))
      })
      if (!onPlate) t.falseBlurs++
    }
    for (const d of label.distractors) {
      t.distractors++
      if (rectCoverage(d.rect, inside) >= 0.25) t.distractorsBlurred++
      if (rectCoverage(d.rect, allText) >= 0.25) t.allTextDistractors++
    }
    if ((i + 1) % 20 === 0) progress(`  ${i + 1}/${labels.length} images`)
  }
  return t
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length ? (s[Math.floor((s.length - 1) / 2)]! + s[Math.ceil((s.length - 1) / 2)]!) / 2 : NaN
}

export const ratio = (a: number, b: number): string => (b ? (a / b).toFixed(3) : '—')
