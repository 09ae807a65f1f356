import sharp from 'sharp'
import { randomPlate, rasterPlate, plateSize, type PlateSpec } from './plates'
import { Rng } from './random'
import { fittedText, loadFont, SIGN_FONTS } from './text-paths'
import { quadCoverage, warpInto, type Point, type Scene } from './warp'

/**
 * Synthetic street scenes. No licensed street photographs ship in any npm package we could vouch for, so
 * the backgrounds are synthesized: sky with clouds, façades with windows and grime, a road with markings,
 * trees, poles and wires, cars — textured with multi-scale noise, then degraded like a camera would
 * (blur, sensor noise, JPEG artefacts). Plates are rendered from OFL fonts and placed with perspective.
 */

export interface PlateLabel {
  plate: string
  lines: string[]
  layout: PlateSpec['layout']
  colour: PlateSpec['colour']
  /** Corners TL, TR, BR, BL in image pixels (x may pass the right edge of a panorama: it wraps). */
  quad: Point[]
  /** Width of the plate's bounding box in pixels. */
  widthPx: number
}

export interface DistractorLabel {
  text: string
  rect: { x: number; y: number; w: number; h: number }
}

export interface ImageLabel {
  file: string
  width: number
  height: number
  panorama: boolean
  plates: PlateLabel[]
  distractors: DistractorLabel[]
}

const SIGN_TEXTS = [
  'SHARMA SWEETS',
  'GUPTA MEDICAL STORE',
  'HOTEL SAGAR',
  'NEW DELHI TAILORS',
  'MOBILE REPAIRING',
  'SALE 50% OFF',
  'OPEN 24 HOURS',
  'STATE BANK ATM',
  'CHEMIST',
  'PAN SHOP',
  'AUTO PARTS',
  'RAJ ELECTRICALS',
  'CALL 98201 45678',
  'FRESH JUICE',
  'BOOK DEPOT',
  'TEA STALL',
  'PARKING',
  'NO ENTRY',
  'PHARMACY',
  'BAKERY',
  'SHOP NO 12',
  'GATE NO 3',
  'PLOT 45 SECTOR 21',
  'SINCE 1985',
  'XEROX',
  'ROOM 204',
  'EXIT',
  'KRISHNA TRAVELS',
  'SAI HARDWARE',
  'DR MEHTA CLINIC',
  'JAIN GENERAL STORE',
  'LAXMI JEWELLERS',
  'TIFFIN CENTRE',
  'HAIR SALOON',
  'GAS AGENCY',
  'BUS STOP',
  'SPEED LIMIT 40',
  'MG ROAD',
  'PIN 400012',
  'STD ISD PCO',
  'NH 48',
  'BLOCK C 17',
  'WING A FLAT 702',
]

const FACADE = [
  '#c9b79c',
  '#d8cfc0',
  '#b0a48e',
  '#e2c79f',
  '#9fb3b8',
  '#d9a58b',
  '#c2c7a3',
  '#e6dccb',
  '#a89f97',
  '#cf9f9f',
]
const CAR = [
  '#b8bcc2',
  '#2b2d30',
  '#e8e8e6',
  '#8a1d1d',
  '#1d3a6e',
  '#6c6f73',
  '#c4a46b',
  '#3d5a3d',
  '#e2e2e2',
]
const SIGN_BG = ['#b3001b', '#1c4fa0', '#0f6b3a', '#f0c419', '#ffffff', '#222222', '#ff7a00', '#6a1b9a']

function signColours(rng: Rng): { bg: string; fg: string } {
  const bg = rng.pick(SIGN_BG)
  const light = bg === '#ffffff' || bg === '#f0c419'
  return { bg, fg: light ? rng.pick(['#b3001b', '#111111', '#1c4fa0']) : rng.pick(['#ffffff', '#ffe14d']) }
}

interface Placement {
  svg: string
  plates: Array<{ spec: PlateSpec; cx: number; cy: number; width: number }>
  distractors: DistractorLabel[]
}

/** Façades along the horizon with windows and shop signs (the distractor text). */
function buildings(rng: Rng, W: number, horizon: number, scale: number, out: Placement): void {
  let x = -rng.range(0, 200) * scale
  while (x < W) {
    const bw = rng.range(180, 520) * scale
    const bh = rng.range(0.35, 0.95) * horizon
    const top = horizon - bh
    const colour = rng.pick(FACADE)
    out.svg += `<rect x="${x}" y="${top}" width="${bw}" height="${bh + 4}" fill="${colour}"/>`
    out.svg += `<rect x="${x}" y="${top}" width="${bw}" height="${bh + 4}" fill="url(#grime)" fill-opacity="0.35"/>`
    const ww = rng.range(18, 40) * scale
    const wh = ww * rng.range(1, 1.6)
    for (let wy = top + wh * 0.6; wy < horizon - wh * 2.5; wy += wh * 1.9) {
      for (let wx = x + ww * 0.6; wx < x + bw - ww * 1.2; wx += ww * 1.8) {
        const lit = rng.chance(0.2)
        out.svg += `<rect x="${wx.toFixed(1)}" y="${wy.toFixed(1)}" width="${ww.toFixed(1)}" height="${wh.toFixed(1)}" fill="${lit ? '#e9d9a6' : '#3b4654'}" fill-opacity="0.85"/>`
      }
    }
    // a shop sign over the ground floor, sometimes a banner higher up
    const signs = rng.chance(0.8) ? 1 + (rng.chance(0.35) ? 1 : 0) : 0
    for (let s = 0; s < signs; s++) {
      const text = rng.pick(SIGN_TEXTS)
      const font = loadFont(rng.pick(SIGN_FONTS))
      const cap = rng.range(10, 60) * scale
      const { bg, fg } = signColours(rng)
      const cx = x + bw / 2
      const cy = s === 0 ? horizon - cap * rng.range(1.6, 3) : top + (horizon - top) * rng.range(0.2, 0.5)
      const maxW = bw * 0.9
      const t = fittedText(font, text, cx, cy + cap / 2, cap, maxW, fg)
      const pad = cap * 0.5
      out.svg += `<rect x="${(cx - t.width / 2 - pad).toFixed(1)}" y="${(cy - cap / 2 - pad).toFixed(1)}" width="${(t.width + 2 * pad).toFixed(1)}" height="${(cap + 2 * pad).toFixed(1)}" fill="${bg}"/>`
      out.svg += t.svg
      out.distractors.push({ text, rect: { x: cx - t.width / 2, y: cy - cap / 2, w: t.width, h: cap } })
    }
    x += bw + rng.range(0, 30) * scale
  }
}

function trees(rng: Rng, W: number, horizon: number, scale: number, out: Placement): void {
  const n = Math.round((W / (600 * scale)) * rng.range(0.5, 2))
  for (let i = 0; i < n; i++) {
    const cx = rng.range(0, W)
    const r = rng.range(50, 140) * scale
    out.svg += `<rect x="${cx - r * 0.08}" y="${horizon - r * 1.2}" width="${r * 0.16}" height="${r * 1.3}" fill="#4a3626"/>`
    for (let k = 0; k < 6; k++) {
      out.svg += `<ellipse cx="${cx + rng.range(-r, r) * 0.6}" cy="${horizon - r * 1.3 + rng.range(-r, r) * 0.5}" rx="${r * rng.range(0.4, 0.8)}" ry="${r * rng.range(0.3, 0.6)}" fill="${rng.pick(['#2f5d2a', '#3f7335', '#274d22', '#55803f'])}"/>`
    }
  }
  // poles and wires
  for (let i = 0; i < n; i++) {
    const px = rng.range(0, W)
    out.svg += `<rect x="${px}" y="${horizon * 0.15}" width="${6 * scale}" height="${horizon * 0.95}" fill="#5a5a5a"/>`
  }
  for (let i = 0; i < 3; i++) {
    const y = horizon * rng.range(0.12, 0.3)
    out.svg += `<path d="M0 ${y} Q ${W / 2} ${y + rng.range(20, 80) * scale} ${W} ${y}" stroke="#222" stroke-width="${1.5 * scale}" fill="none"/>`
  }
}

/** A car seen from behind or in front, its plate on the bumper; returns where the plate goes. */
function car(
  rng: Rng,
  out: Placement,
  cx: number,
  bottom: number,
  plateWidth: number,
  spec: PlateSpec,
): void {
  const { w: pw } = plateSize(spec.layout)
  const mm = plateWidth / pw
  const cw = 1750 * mm
  const ch = cw * rng.range(0.5, 0.75)
  const x = cx - cw / 2
  const y = bottom - ch
  const colour = rng.pick(CAR)
  out.svg += `<rect x="${x}" y="${bottom - ch * 0.12}" width="${cw * 0.18}" height="${ch * 0.14}" rx="${cw * 0.03}" fill="#111"/>`
  out.svg += `<rect x="${x + cw * 0.82}" y="${bottom - ch * 0.12}" width="${cw * 0.18}" height="${ch * 0.14}" rx="${cw * 0.03}" fill="#111"/>`
  out.svg += `<path d="M${x} ${bottom - ch * 0.1} L${x} ${y + ch * 0.45} Q${x + cw * 0.08} ${y + ch * 0.05} ${x + cw * 0.25} ${y} L${x + cw * 0.75} ${y} Q${x + cw * 0.92} ${y + ch * 0.05} ${x + cw} ${y + ch * 0.45} L${x + cw} ${bottom - ch * 0.1} Z" fill="${colour}"/>`
  out.svg += `<path d="M${x + cw * 0.12} ${y + ch * 0.42} L${x + cw * 0.27} ${y + ch * 0.08} L${x + cw * 0.73} ${y + ch * 0.08} L${x + cw * 0.88} ${y + ch * 0.42} Z" fill="#26303a" fill-opacity="0.9"/>`
  out.svg += `<rect x="${x + cw * 0.04}" y="${y + ch * 0.5}" width="${cw * 0.14}" height="${ch * 0.1}" fill="#c0392b"/>`
  out.svg += `<rect x="${x + cw * 0.82}" y="${y + ch * 0.5}" width="${cw * 0.14}" height="${ch * 0.1}" fill="#c0392b"/>`
  out.plates.push({ spec, cx, cy: y + ch * 0.72, width: plateWidth })
}

export interface SceneOptions {
  width: number
  height: number
  panorama: boolean
  plates: number
  /** One plate across the right/left edge (panoramas). */
  seamPlate: boolean
  /** Plate widths in pixels (default: drawn uniformly from `widthRange`). */
  widths?: number[]
  /** Range plate widths are drawn from, in pixels (default 20–200). */
  widthRange?: readonly [number, number]
  /** JPEG quality (default: drawn from `qualityRange`, itself 40–92 by default). */
  quality?: number
  qualityRange?: readonly [number, number]
  /** How plates are seen (default: the base set's mild perspective). */
  view?: PlateView
  /** Camera blur: Gaussian sigmas drawn from (default 0, 0, 0.6, 0.9, 1.2). */
  sigmas?: readonly number[]
  /** Chance of horizontal motion blur over the whole frame, and its largest length in pixels (default none). */
  motionBlur?: { chance: number; maxLength: number }
}

/**
 * The plate's pose: keystone from turning about its vertical axis (`yaw`: one side's height grows by this
 * share while the other's shrinks), foreshortening of its width (`shrink`, seen at an angle) and roll (degrees).
 */
export interface PlateView {
  yaw: number
  shrink: readonly [number, number]
  roll: number
}

const BASE_VIEW: PlateView = { yaw: 0.22, shrink: [0.8, 1], roll: 6 }
const BASE_SIGMAS = [0, 0, 0.6, 0.9, 1.2] as const

/**
 * A horizontal line kernel `length` pixels long (sub-pixel ends weighted), for motion blur: three rows,
 * the outer two zero (libvips wants kernels at least 3×3).
 */
function motionKernel(length: number): { width: number; height: number; kernel: number[] } {
  const n = Math.max(3, Math.ceil(length) | 1)
  const row = new Array<number>(n).fill(1)
  row[0] = row[n - 1] = Math.max(0, Math.min(1, (length - (n - 2)) / 2))
  const zeros = new Array<number>(n).fill(0)
  return { width: n, height: 3, kernel: [...zeros, ...row, ...zeros] }
}

function defs(scale: number): string {
  return `<defs>
  <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#6d9fd6"/><stop offset="1" stop-color="#dfe9f2"/></linearGradient>
  <pattern id="grime" width="${64 * scale}" height="${64 * scale}" patternUnits="userSpaceOnUse"><rect width="${64 * scale}" height="${64 * scale}" fill="#000" fill-opacity="0.05"/><rect x="${8 * scale}" y="${20 * scale}" width="${30 * scale}" height="${4 * scale}" fill="#3a3a3a" fill-opacity="0.4"/><rect x="${40 * scale}" y="${48 * scale}" width="${12 * scale}" height="${9 * scale}" fill="#fff" fill-opacity="0.2"/></pattern>
</defs>`
}

/** Build one scene: the SVG background, then plates warped in, then camera degradations. */
export async function makeScene(
  rng: Rng,
  options: SceneOptions,
): Promise<{ jpeg: Buffer; label: Omit<ImageLabel, 'file'> }> {
  const { width: W, height: H } = options
  const scale = options.panorama ? H / 2000 : H / 1100
  const horizon = options.panorama ? H * rng.range(0.46, 0.52) : H * rng.range(0.35, 0.55)
  const out: Placement = { svg: '', plates: [], distractors: [] }
  out.svg += `<rect width="${W}" height="${horizon + 2}" fill="url(#sky)"/>`
  buildings(rng, W, horizon, scale, out)
  trees(rng, W, horizon, scale, out)
  out.svg += `<rect y="${horizon}" width="${W}" height="${H - horizon}" fill="#5d5f60"/>`
  out.svg += `<rect y="${horizon}" width="${W}" height="${(H - horizon) * 0.08}" fill="#8b8478"/>`
  for (let i = 0; i < W / (300 * scale); i++) {
    const y = horizon + (H - horizon) * rng.range(0.3, 0.9)
    out.svg += `<rect x="${rng.range(0, W)}" y="${y}" width="${rng.range(60, 200) * scale}" height="${6 * scale}" fill="#e8e6dc" fill-opacity="0.8"/>`
  }
  // cars, farther ones nearer the horizon; in a panorama the ground band only (below the horizon)
  const ground = options.panorama ? (H - horizon) * 0.55 : H - horizon
  const plateXs: number[] = []
  for (let i = 0; i < options.plates; i++) {
    const spec = randomPlate(rng)
    const [minW, maxW] = options.widthRange ?? [20, 200]
    const width = options.widths?.[i] ?? rng.range(minW, maxW)
    const depth = (width - 20) / 180
    let cx = rng.range(0.05, 0.95) * W
    if (options.seamPlate && i === 0) cx = W - width * 0.4
    // keep cars apart
    for (
      let tries = 0;
      tries < 20 && plateXs.some((p) => Math.abs(p - cx) < 900 * (width / 500) + 60);
      tries++
    )
      cx = rng.range(0.05, 0.95) * W
    plateXs.push(cx)
    const bottom = horizon + ground * (0.12 + 0.85 * depth) + rng.range(-10, 10) * scale
    car(rng, out, cx, Math.min(H - 4, bottom), width, spec)
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${defs(scale)}${out.svg}</svg>`
  let base = sharp(Buffer.from(svg), { limitInputPixels: false, unlimited: true }).removeAlpha()
  // multi-scale texture: coarse blotches and fine grain, soft-light blended like real surfaces' variation
  const gauss = rng.gaussianTable()
  const noise = (w: number, h: number, sd: number): Buffer => {
    // luminance only (the same in R, G and B), slightly warm or cool per blotch
    const b = Buffer.alloc(w * h * 3)
    for (let i = 0; i < w * h; i++) {
      const v = 128 + gauss() * sd
      const tint = gauss() * sd * 0.15
      b[i * 3] = Math.max(0, Math.min(255, Math.round(v + tint)))
      b[i * 3 + 1] = Math.max(0, Math.min(255, Math.round(v)))
      b[i * 3 + 2] = Math.max(0, Math.min(255, Math.round(v - tint)))
    }
    return b
  }
  const coarse = await sharp(noise(Math.ceil(W / 48), Math.ceil(H / 48), 28), {
    raw: { width: Math.ceil(W / 48), height: Math.ceil(H / 48), channels: 3 },
  })
    .resize(W, H, { kernel: 'cubic', fit: 'fill' })
    .png()
    .toBuffer()
  const fine = await sharp(noise(Math.ceil(W / 3), Math.ceil(H / 3), 14), {
    raw: { width: Math.ceil(W / 3), height: Math.ceil(H / 3), channels: 3 },
  })
    .resize(W, H, { kernel: 'cubic', fit: 'fill' })
    .png()
    .toBuffer()
  base = sharp(
    await base
      .composite([
        { input: coarse, blend: 'soft-light' },
        { input: fine, blend: 'soft-light' },
      ])
      .raw()
      .toBuffer(),
    { raw: { width: W, height: H, channels: 3 } },
  )
  const scene: Scene = { data: new Uint8Array(await base.raw().toBuffer()), width: W, height: H }
  const plates: PlateLabel[] = []
  for (const p of out.plates) {
    const { w: pw, h: ph } = plateSize(p.spec.layout)
    const raster = await rasterPlate(p.spec, Math.max(1, (p.width / pw) * 3))
    const view = options.view ?? BASE_VIEW
    const yaw = rng.range(-view.yaw, view.yaw)
    const shrink = rng.range(view.shrink[0], view.shrink[1])
    const angle = (rng.range(-view.roll, view.roll) * Math.PI) / 180
    const w = p.width * shrink
    const h = (p.width * ph) / pw
    const local: Point[] = [
      [-w / 2, (-h / 2) * (1 + yaw)],
      [w / 2, (-h / 2) * (1 - yaw)],
      [w / 2, (h / 2) * (1 - yaw)],
      [-w / 2, (h / 2) * (1 + yaw)],
    ]
    const quad: Point[] = local.map(([x, y]) => [
      p.cx + x * Math.cos(angle) - y * Math.sin(angle),
      p.cy + x * Math.sin(angle) + y * Math.cos(angle),
    ])
    warpInto(scene, raster, quad, options.panorama)
    const xs = quad.map((q) => q[0])
    plates.push({
      plate: p.spec.plate,
      lines: p.spec.lines,
      layout: p.spec.layout,
      colour: p.spec.colour,
      quad,
      widthPx: Math.max(...xs) - Math.min(...xs),
    })
  }
  // camera: optics blur, sensor noise, JPEG
  const sigma = rng.pick(options.sigmas ?? BASE_SIGMAS)
  const grain = rng.range(0, 6)
  // drawn only when asked for, so the base set's draws (and images) stay as they were
  const motion =
    options.motionBlur && rng.chance(options.motionBlur.chance)
      ? rng.range(1.5, options.motionBlur.maxLength)
      : 0
  if (grain > 0.5)
    for (let i = 0; i < scene.data.length; i++)
      scene.data[i] = Math.max(0, Math.min(255, scene.data[i]! + Math.round(gauss() * grain)))
  let img = sharp(scene.data, { raw: { width: W, height: H, channels: 3 } })
  if (sigma > 0) img = img.blur(sigma)
  if (motion > 0) img = img.convolve(motionKernel(motion))
  if (options.panorama) {
    img = img.withXmp(
      `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:GPano="http://ns.google.com/photos/1.0/panorama/" GPano:ProjectionType="equirectangular" GPano:UsePanoramaViewer="True" GPano:FullPanoWidthPixels="${W}" GPano:FullPanoHeightPixels="${H}" GPano:CroppedAreaImageWidthPixels="${W}" GPano:CroppedAreaImageHeightPixels="${H}" GPano:CroppedAreaLeftPixels="0" GPano:CroppedAreaTopPixels="0"/></rdf:RDF></x:xmpmeta>`,
    )
  }
  const [minQ, maxQ] = options.qualityRange ?? [40, 92]
  const quality = rng.int(minQ, maxQ)
  const jpeg = await img.jpeg({ quality: options.quality ?? quality }).toBuffer()
  return {
    jpeg,
    label: { width: W, height: H, panorama: options.panorama, plates, distractors: out.distractors },
  }
}

export { quadCoverage }
