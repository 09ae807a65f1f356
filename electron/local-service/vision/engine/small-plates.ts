import { DB_DEFAULTS } from './detector'
import { area, grow, intersection, mergeOverlapping, union, type Rect } from './geometry'
import { plateShaped, type PlateFinding, type TextLine } from './plate-finder'
import { normalizePlateText, readPlate, STATE_CODES } from './plate-grammar'
import type { Recognition } from './recognizer'
import type { SmallTextCandidate } from './text-finder'

/**
 * Plates too small to read. Below capitals of about 10 px the recogniser reads a registration unreliably
 * (on the tuning set, plate lines under 20 px high mostly read as fragments: `MLE4RR` for ML71EZ4612,
 * `8523` for RJ13J8523), so the grammar cannot say whether small text is a plate. Small text is blurred
 * when the detector saw text there (a line it found, or a texture proposal in which the close look saw
 * text), its box has a plate's shape, and it does not read confidently as a word. Text that small carries
 * little for a viewer, and a plate left sharp is the costlier mistake; the bench counts the shop signs
 * blurred this way.
 */
export interface SmallTextOptions {
  /** Texture proposals at most this high (image pixels; they hug the text) hold text too small to read. */
  maxTextHeight: number
  /** Detector lines whose text (the box less the detector's growth) is at most this high, likewise. */
  maxLineText: number
  /**
   * A texture proposal is text when the close look's text probability reaches `minTextScore` somewhere
   * inside it; a one-line proposal also when a row across it turns at least `minStrokes` times, at least
   * `minStrokeDensity` turns per its height across (characters are about as wide as high, two turns each;
   * a row of windows or a car's outline turns more sparsely). On the tuning sets (108 photos generated
   * with other seeds than the bench's), of the one-line proposals passing this 98 lay on plates, 6 on
   * shop signs and 2 elsewhere.
   */
  minTextScore: number
  minStrokes: number
  minStrokeDensity: number
  /**
   * A reading at least this sure of a word (4+ characters, mostly letters, not a plate read near-exactly)
   * or of a line longer than any registration is legible text that is not a plate.
   */
  wordConfidence: number
  /** Lines higher than this (image pixels) are large text: small text overlapping them is a piece of it. */
  largeText: number
}

export const SMALL_TEXT_DEFAULTS: SmallTextOptions = {
  maxTextHeight: 12,
  maxLineText: Number(process.env.MLT ?? 15),
  minTextScore: 0.5,
  minStrokes: 6,
  minStrokeDensity: 2,
  wordConfidence: 0.7,
  largeText: 28,
}

/**
 * A registration's opening as small text reads it: a real state code then a digit (`TS24`), or `22BH`, at
 * the start of the reading (after the IND strip's letters, when read).
 */
export function plateFragment(text: string): boolean {
  const t = text.startsWith('IND') ? text.slice(3) : text
  return (STATE_CODES.has(t.slice(0, 2)) && /^[0-9]$/.test(t[2] ?? '')) || /^[0-9]{2}BH/.test(t)
}

/**
 * A confident reading of legible text that is no plate: a word (4+ characters, more letters than digits,
 * neither a registration read near-exactly nor one's opening), or a line longer than any registration
 * (12+ characters) that is not near one.
 */
export function readsAsWord(reading: Recognition, confidence: number): boolean {
  const text = normalizePlateText(reading.text)
  if (reading.confidence < confidence || text.length < 4) return false
  if (text.length >= 12 && !readPlate(text, 2.2)) return true
  const letters = text.replace(/[^A-Z]/g, '').length
  return letters > 0.5 * text.length && !readPlate(text, 1) && !plateFragment(text)
}

/**
 * The plate's board around its text: a plate is about twice as high as its capitals and reaches past them
 * on the left (the IND strip) and right; a two-line plate's text fills more of it. Small text's box is
 * rough (blur, a few pixels), and the board may be turned or seen aside, so it is taken generously.
 */
export function plateBoard(text: Rect, lines: 1 | 2): Rect {
  const dx = 0.2 * text.w + 0.3 * text.h
  const dy = (lines === 1 ? 0.6 : 0.3) * text.h
  return { x: text.x - dx, y: text.y - dy, w: text.w + 2 * dx, h: text.h + 2 * dy }
}

/**
 * The text inside a detector line's box: the detector grows each region it finds by the distance
 * area × 1.6 / perimeter / 2 (detector.ts); this undoes it (the distance found by bisection).
 */
export function lineCore(r: Rect, ratio = DB_DEFAULTS.unclipRatio): Rect {
  const grown = (d: number) => {
    const w = r.w - 2 * d
    const h = r.h - 2 * d
    return (w * h * ratio) / (2 * (w + h))
  }
  let lo = 0
  let hi = Math.min(r.w, r.h) / 2
  for (let k = 0; k < 30; k++) {
    const d = (lo + hi) / 2
    if (d < grown(d)) lo = d
    else hi = d
  }
  const d = (lo + hi) / 2
  return { x: r.x + d, y: r.y + d, w: r.w - 2 * d, h: r.h - 2 * d }
}

/**
 * Shape of a small plate's text box (tight around the text, unlike a detector line's): one line at least
 * 2.2 times as wide as high (a plate's text is ~6.8:1, ~3.7:1 seen 55° aside), two lines 0.9–3.8.
 */
export function textShaped(rect: Rect, lines: 1 | 2): boolean {
  const aspect = rect.w / rect.h
  return lines === 1 ? aspect >= 2.2 && aspect <= 10 : aspect >= 0.9 && aspect <= 3.8
}

/** Two boxes stacked like a two-line plate's lines: overlapping across, close above each other, alike. */
function stacked(a: Rect, b: Rect): boolean {
  if (b.y <= a.y) return false
  const gap = b.y - (a.y + a.h)
  const overlapX = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x)
  const ratio = a.h / b.h
  return gap <= 0.8 * Math.max(a.h, b.h) && overlapX >= 0.5 * Math.min(a.w, b.w) && ratio >= 0.5 && ratio <= 2
}

interface Candidate {
  /** The text's box (tight for a texture proposal; a line's box less the detector's growth). */
  text: Rect
  /** What to blur: the plate's board around it. */
  board: Rect
  lines: 1 | 2
  /** Its reading, when a detector line gave one. */
  reading?: Recognition
}

/**
 * Small plates among small text: detector lines (already read) low enough, and texture proposals the close
 * look saw text in (or whose rows turn like characters') that lie in no line (a proposal as high as two
 * lines of small text may be a two-line plate); one line, two stacked or a two-line proposal,
 * plate-shaped, not a confident word. `read` reads boxes with the recogniser (the proposals' own crops).
 * Each finding's box is the region to blur (the plate's board).
 */
export async function smallPlates(
  proposals: readonly SmallTextCandidate[],
  lines: readonly TextLine[],
  read: (rects: readonly Rect[]) => Promise<Recognition[]>,
  options: SmallTextOptions = SMALL_TEXT_DEFAULTS,
): Promise<PlateFinding[]> {
  const most = options.maxTextHeight
  const fromLines: Candidate[] = []
  for (const l of lines) {
    const text = lineCore(l.rect)
    // a detector line's box is about as high as its text, and the usual margin covers the plate
    const board = grow(l.rect, LINE_MARGIN)
    if (text.h <= options.maxLineText && plateShaped(l.rect, 1))
      fromLines.push({ text, board, lines: 1, reading: l.reading })
  }
  const fromTexture: Candidate[] = []
  for (const c of proposals) {
    if (lines.some((l) => area(intersection(l.rect, c.rect)) >= 0.6 * area(c.rect))) continue
    const count = c.rect.h <= most ? 1 : c.rect.h <= 2.2 * most ? 2 : 0
    const seen = c.textScore >= options.minTextScore
    const turns =
      count === 1 &&
      c.strokes >= options.minStrokes &&
      (c.strokes * c.rect.h) / c.rect.w >= options.minStrokeDensity
    if (!seen && !turns) continue
    if (count && textShaped(c.rect, count))
      fromTexture.push({ text: c.rect, board: plateBoard(c.rect, count), lines: count })
  }
  const large = lines.filter((l) => l.rect.h > options.largeText).map((l) => l.rect)
  const singles = [...fromLines, ...fromTexture].filter(
    (c) => !large.some((l) => area(intersection(l, c.text)) >= 0.3 * area(c.text)),
  )
  const all: Candidate[] = [...singles]
  for (const a of singles)
    for (const b of singles)
      if (a.lines === 1 && b.lines === 1 && stacked(a.text, b.text)) {
        const text = union(a.text, b.text)
        if (text.w / text.h >= 0.8 && text.w / text.h <= 3.8)
          all.push({ text, board: union(a.board, b.board), lines: 2 })
      }
  const unread = all.filter((c) => !c.reading)
  const readings = unread.length ? await read(unread.map((c) => c.board)) : []
  unread.forEach((c, i) => (c.reading = readings[i]))
  const found: PlateFinding[] = []
  for (const c of all) {
    const reading = c.reading as Recognition
    if (readsAsWord(reading, options.wordConfidence)) continue
    found.push({ rect: c.board, text: reading.text, lines: c.lines, why: 'small-text' })
  }
  return mergeOverlapping(found, 0.3, (a, b) => ({
    ...(a.lines >= b.lines ? a : b),
    rect: union(a.rect, b.rect),
  }))
}

/** The margin around a detector line's box, as a share of its height (blur-image.DEFAULT_MARGIN). */
const LINE_MARGIN = 0.3
