import sharp from 'sharp'
import { Rng } from './random'
import { fittedText, loadFont, PLATE_FONTS } from './text-paths'

export type PlateColour = 'white' | 'yellow' | 'green' | 'green-commercial' | 'black'
export type PlateLayout = 'one-line' | 'two-line'

export interface PlateSpec {
  /** The registration as letters and digits, e.g. `MH12AB1234`. */
  plate: string
  /** Line(s) as printed, e.g. ['MH 12 AB 1234'] or ['MH 12', 'AB 1234']. */
  lines: string[]
  colour: PlateColour
  layout: PlateLayout
  font: string
}

const STATES =
  'AN AP AR AS BR CG CH DD DL GA GJ HP HR JH JK KA KL LA MH ML MN MP MZ NL OD PB PY RJ SK TN TR TS UK UP WB'.split(
    ' ',
  )
const LETTERS = 'ABCDEFGHJKLMNPRSTUVWXYZ'

function letters(rng: Rng, n: number): string {
  let s = ''
  for (let i = 0; i < n; i++) s += rng.pick([...LETTERS])
  return s
}

function digits(rng: Rng, n: number): string {
  let s = ''
  for (let i = 0; i < n; i++) s += String(rng.int(0, 9))
  return s
}

/** A random registration in one of the Indian formats, as the plate prints it. */
export function randomRegistration(rng: Rng): { plate: string; parts: string[] } {
  const kind = rng.next()
  if (kind < 0.12) {
    // Bharat series: 22 BH 1234 AA
    const parts = [String(rng.int(21, 26)), 'BH', digits(rng, 4), letters(rng, rng.int(1, 2))]
    return { plate: parts.join(''), parts }
  }
  if (kind < 0.24) {
    // Delhi: DL 3C AB 1234 (district digit, category letter)
    const parts = [
      'DL',
      `${rng.int(1, 14)}${rng.pick(['C', 'S', 'E', 'V', 'L'])}`,
      letters(rng, rng.int(1, 2)),
      digits(rng, 4),
    ]
    return { plate: parts.join(''), parts }
  }
  const district = String(rng.int(1, 99)).padStart(2, '0')
  const series = letters(rng, rng.pick([1, 2, 2, 2, 3]))
  const parts = [rng.pick(STATES), district, series, digits(rng, 4)]
  return { plate: parts.join(''), parts }
}

const COLOURS: Record<PlateColour, { bg: string; fg: string }> = {
  white: { bg: '#f4f4ef', fg: '#111111' },
  yellow: { bg: '#f2c514', fg: '#141414' },
  green: { bg: '#1d7a3a', fg: '#f5f5f5' },
  'green-commercial': { bg: '#1d7a3a', fg: '#f2c514' },
  black: { bg: '#141414', fg: '#f2c514' },
}

export function randomPlate(rng: Rng): PlateSpec {
  const { plate, parts } = randomRegistration(rng)
  const layout: PlateLayout = rng.chance(0.3) ? 'two-line' : 'one-line'
  const colour = rng.pick<PlateColour>([
    'white',
    'white',
    'white',
    'yellow',
    'yellow',
    'green',
    'green-commercial',
    'black',
  ])
  const lines =
    layout === 'one-line' ? [parts.join(' ')] : [parts.slice(0, 2).join(' '), parts.slice(2).join(' ')]
  return { plate, lines, colour, layout, font: rng.pick(PLATE_FONTS) }
}

/** Plate size in millimetres (HSRP: 500×120 one-line, 340×200 two-line), the unit of the SVG. */
export function plateSize(layout: PlateLayout): { w: number; h: number } {
  return layout === 'one-line' ? { w: 500, h: 120 } : { w: 340, h: 200 }
}

/** The plate as SVG: rounded board, embossed border, the blue "IND" strip and the registration. */
export function plateSvg(spec: PlateSpec, pxPerMm: number): string {
  const { w, h } = plateSize(spec.layout)
  const { bg, fg } = COLOURS[spec.colour]
  const font = loadFont(spec.font)
  const left = 48
  let text = ''
  if (spec.layout === 'one-line') {
    text = fittedText(
      font,
      spec.lines[0] as string,
      (left + w - 10) / 2,
      h / 2 + 32,
      65,
      w - left - 22,
      fg,
    ).svg
  } else {
    text += fittedText(font, spec.lines[0] as string, (left + w - 10) / 2, 88, 65, w - left - 30, fg).svg
    text += fittedText(font, spec.lines[1] as string, (left + w - 10) / 2, 176, 65, w - left - 22, fg).svg
  }
  const ind = fittedText(loadFont(PLATE_FONTS[0]), 'IND', 24, h - 14, 13, 34, '#1b3f99').svg
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.round(w * pxPerMm)}" height="${Math.round(h * pxPerMm)}" viewBox="0 0 ${w} ${h}">
  <rect x="0.5" y="0.5" width="${w - 1}" height="${h - 1}" rx="9" fill="${bg}" stroke="#5b5b5b" stroke-width="1"/>
  <rect x="5" y="5" width="${w - 10}" height="${h - 10}" rx="7" fill="none" stroke="${fg}" stroke-width="3"/>
  <circle cx="24" cy="${h / 2 - 14}" r="9" fill="#5e7fd6" opacity="0.8"/>
  ${ind}
  ${text}
</svg>`
}

/** RGBA pixels of the plate, flat, at `pxPerMm`. */
export async function rasterPlate(
  spec: PlateSpec,
  pxPerMm: number,
): Promise<{ data: Uint8Array; width: number; height: number }> {
  const { data, info } = await sharp(Buffer.from(plateSvg(spec, pxPerMm)))
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height }
}
