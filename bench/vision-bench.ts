import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import sharp from 'sharp'
import { blurImageFile, type BlurOptions } from '../electron/local-service/vision/engine/blur-image'
import { PlateOcr } from '../electron/local-service/vision/engine/ocr'
import { readLines } from '../electron/local-service/vision/engine/plate-finder'
import { normalizePlateText } from '../electron/local-service/vision/engine/plate-grammar'
import type { Raster } from '../electron/local-service/vision/engine/raster'
import { ensureSet, FULL_SET, SET_DIR } from './vision/make-set'
import type { ImageLabel, PlateLabel } from './vision/scene'
import { quadCoverage } from './vision/warp'

/**
 * `npm run bench:vision`: license-plate blurring on the generated labelled set (bench/vision/make-set.ts).
 * A plate counts as found when ≥ 90 % of its area is blurred; a distractor (shop-sign text) counts as blurred
 * when ≥ 25 % of its text box is. "Readable" means the recogniser reads the plate's crop within 2 edits
 * of its registration. Each configuration (detector scale) runs over the same set, side by side.
 *
 *   npm run bench:vision                      # full set, default configuration and the baselines
 *   npm run bench:vision -- --scales auto,1   # compare detector scales (auto: full resolution up to 16 MP)
 *   npm run bench:vision -- --limit 40        # the first 40 photos and the panoramas, for a quick look
 */

interface Args {
  scales: Array<number | 'auto'>
  limit?: number
  threads: number
  memoryOnly: boolean
}

function parseArgs(argv: string[]): Args {
  const get = (name: string): string | undefined => {
    const i = argv.indexOf(`--${name}`)
    return i >= 0 ? argv[i + 1] : undefined
  }
  return {
    scales: (get('scales') ?? 'auto').split(',').map((v) => (v === 'auto' ? 'auto' : Number(v))),
    limit: get('limit') ? Number(get('limit')) : undefined,
    threads: Number(get('threads') ?? 2),
    memoryOnly: argv.includes('--one'),
  }
}

function levenshtein(a: string, b: string): number {
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

function covered(boxes: ReadonlyArray<{ x: number; y: number; w: number; h: number }>) {
  return (x: number, y: number): boolean =>
    boxes.some((b) => x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h)
}

function rectCoverage(
  r: { x: number; y: number; w: number; h: number },
  inside: (x: number, y: number) => boolean,
): number {
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

interface Tally {
  plates: number
  found: number
  readableBefore: number
  readableAfter: number
  /** Plates counted as found (≥ 90 % blurred) that the recogniser still reads: must be 0. */
  readableAfterFound: number
  distractors: number
  distractorsBlurred: number
  allTextFound: number
  allTextDistractors: number
  msPerMp: number[]
  bySize: Map<string, { n: number; found: number }>
  byLayout: Map<string, { n: number; found: number }>
  pano8kMs: number[]
}

function sizeBand(w: number): string {
  if (w < 40) return '20–40 px'
  if (w < 80) return '40–80 px'
  if (w < 120) return '80–120 px'
  return '120–200 px'
}

async function evaluate(
  ocr: PlateOcr,
  labels: ImageLabel[],
  options: BlurOptions,
  dir: string,
): Promise<Tally> {
  const t: Tally = {
    plates: 0,
    found: 0,
    readableBefore: 0,
    readableAfter: 0,
    readableAfterFound: 0,
    distractors: 0,
    distractorsBlurred: 0,
    allTextFound: 0,
    allTextDistractors: 0,
    msPerMp: [],
    bySize: new Map(),
    byLayout: new Map(),
    pano8kMs: [],
  }
  for (const [i, label] of labels.entries()) {
    const path = join(dir, label.file)
    const started = performance.now()
    const outcome = await blurImageFile(ocr, path, options)
    const ms = performance.now() - started
    t.msPerMp.push(ms / ((label.width * label.height) / 1e6))
    if (label.width === 8000) t.pano8kMs.push(ms)
    const inside = covered(outcome.boxes)
    const margin = options.margin ?? 0.3
    const allText = covered(
      outcome.textLines.flatMap((l) => {
        const d = Math.max(2, l.h * margin)
        const g = { x: l.x - d, y: l.y - d, w: l.w + 2 * d, h: l.h + 2 * d }
        return label.panorama && g.x + g.w > label.width ? [g, { ...g, x: g.x - label.width }] : [g]
      }),
    )
    const before = await decodeRgb(new Uint8Array(await sharp(path).toBuffer()))
    const after = await decodeRgb(outcome.bytes)
    for (const p of label.plates) {
      t.plates++
      const found = quadCoverage(p.quad, inside, label.panorama ? label.width : undefined) >= 0.9
      if (found) t.found++
      if (quadCoverage(p.quad, allText, label.panorama ? label.width : undefined) >= 0.9) t.allTextFound++
      for (const [map, key] of [
        [t.bySize, sizeBand(p.widthPx)],
        [t.byLayout, `${p.layout} ${p.colour}`],
      ] as const) {
        const e = map.get(key) ?? { n: 0, found: 0 }
        e.n++
        if (found) e.found++
        map.set(key, e)
      }
      if (await readable(ocr, before, p, label.panorama)) t.readableBefore++
      if (await readable(ocr, after, p, label.panorama)) {
        t.readableAfter++
        if (found) t.readableAfterFound++
      }
    }
    for (const d of label.distractors) {
      t.distractors++
      if (rectCoverage(d.rect, inside) >= 0.25) t.distractorsBlurred++
      if (rectCoverage(d.rect, allText) >= 0.25) t.allTextDistractors++
    }
    if ((i + 1) % 20 === 0) process.stdout.write(`  ${i + 1}/${labels.length} images\n`)
  }
  return t
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length ? (s[Math.floor((s.length - 1) / 2)]! + s[Math.ceil((s.length - 1) / 2)]!) / 2 : NaN
}
const pct = (a: number, b: number): string => (b ? (a / b).toFixed(3) : '—')

/** One 8000×4000 panorama in a fresh process: its time and the process's peak resident memory. */
function measureOne(file: string, scale: number | 'auto', threads: number): { ms: number; peakMb: number } {
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      import.meta.filename,
      '--one',
      file,
      '--scales',
      String(scale),
      '--threads',
      String(threads),
    ],
    {
      encoding: 'utf8',
    },
  )
  const line = r.stdout.split('\n').find((l) => l.startsWith('{'))
  if (!line) throw new Error(`the single-image run failed: ${r.stderr}`)
  return JSON.parse(line) as { ms: number; peakMb: number }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2))
  if (args.memoryOnly) {
    const file = process.argv[process.argv.indexOf('--one') + 1]!
    const ocr = await PlateOcr.load({ threads: args.threads })
    const started = performance.now()
    await blurImageFile(ocr, file, { detectScale: args.scales[0] })
    const ms = performance.now() - started
    console.log(JSON.stringify({ ms, peakMb: process.resourceUsage().maxRSS / 1024 }))
    return
  }
  console.log(`Generating or reusing the labelled set in ${SET_DIR} ...`)
  let labels = await ensureSet(FULL_SET)
  if (args.limit !== undefined)
    labels = [...labels.filter((l) => !l.panorama).slice(0, args.limit), ...labels.filter((l) => l.panorama)]
  const plates = labels.reduce((n, l) => n + l.plates.length, 0)
  const distractors = labels.reduce((n, l) => n + l.distractors.length, 0)
  console.log(
    `${labels.length} images (${labels.filter((l) => l.panorama).length} panoramas), ${plates} plates, ${distractors} distractor texts`,
  )
  const ocr = await PlateOcr.load({ threads: args.threads })
  const rows: Array<[string, Tally, { ms: number; peakMb: number } | undefined]> = []
  for (const scale of args.scales) {
    console.log(`\nDetector scale ${scale}:`)
    const tally = await evaluate(ocr, labels, { detectScale: scale }, SET_DIR)
    const pano = labels.find((l) => l.width === 8000)
    rows.push([
      `scale ${scale}`,
      tally,
      pano ? measureOne(join(SET_DIR, pano.file), scale, args.threads) : undefined,
    ])
  }
  console.log('\nLicense-plate blurring (a plate is found when ≥ 90 % of it is blurred)')
  console.log(
    '| configuration | plate recall | distractors blurred | readable before → after (of them found) | median ms/MP | 8000×4000 (s, in-run median) | 8000×4000 alone: s, peak MB | all-text baseline: recall, distractors |',
  )
  console.log('|---|---|---|---|---|---|---|---|')
  for (const [name, t, one] of rows) {
    console.log(
      `| ${name} | ${pct(t.found, t.plates)} | ${pct(t.distractorsBlurred, t.distractors)} | ${t.readableBefore} → ${t.readableAfter} (${t.readableAfterFound}) of ${t.plates} | ${median(t.msPerMp).toFixed(0)} | ${(median(t.pano8kMs) / 1000).toFixed(1)} | ${one ? `${(one.ms / 1000).toFixed(1)}, ${one.peakMb.toFixed(0)}` : '—'} | ${pct(t.allTextFound, t.plates)}, ${pct(t.allTextDistractors, t.distractors)} |`,
    )
  }
  for (const [name, t] of rows) {
    console.log(`\nRecall by plate width and by kind (${name}):`)
    for (const [k, v] of [...t.bySize, ...[...t.byLayout].sort()])
      console.log(`  ${k.padEnd(28)} ${pct(v.found, v.n)} (${v.found}/${v.n})`)
  }
  console.log(
    `\nThreads per inference: ${args.threads}. Machine: ${(await import('node:os')).cpus().length} cores, shared with other work: figures are indicative.`,
  )
  await ocr.release()
}

await main()
