/**
 * Does a recognised text read as an Indian registration plate? Formats:
 * - state series: `MH 12 AB 1234`, `DL 3C AB 1234`, `KA 01 M 123` — a state code, a district of one or two
 *   digits, zero to three series letters, a number of one to four digits;
 * - Bharat series: `22 BH 1234 AA` — year, `BH`, four digits, one or two letters.
 * Two-line plates read as their lines joined top to bottom. OCR confuses O/0, I/1, B/8, S/5, Z/2, G/6...:
 * a character of the wrong class costs little when it is a known confusion and a full edit otherwise.
 */

export const STATE_CODES: ReadonlySet<string> = new Set(
  'AN AP AR AS BR CG CH DD DL DN GA GJ HP HR JH JK KA KL LA LD MH ML MN MP MZ NL OD OR PB PY RJ SK TN TR TS UK UP WB'.split(
    ' ',
  ),
)

/** Letter read where a digit belongs, and the digit it most likely is (and the other way round). */
const LETTER_AS_DIGIT: Readonly<Record<string, string>> = {
  O: '0',
  D: '0',
  Q: '0',
  U: '0',
  I: '1',
  L: '1',
  J: '1',
  T: '7',
  Z: '2',
  S: '5',
  B: '8',
  G: '6',
  A: '4',
}
const DIGIT_AS_LETTER: Readonly<Record<string, string>> = {
  '0': 'O',
  '1': 'I',
  '2': 'Z',
  '3': 'B',
  '4': 'A',
  '5': 'S',
  '6': 'G',
  '7': 'T',
  '8': 'B',
}

/** Cost of reading a known confusion; an unrelated character, a missing or an extra one costs 1. */
export const CONFUSION_COST = 0.3

export interface PlateReading {
  /** The plate as read and corrected, e.g. `MH12AB1234`. */
  plate: string
  format: 'state' | 'bharat'
  /** Edit cost from the text to the nearest well-formed plate (0 = read exactly as a plate). */
  cost: number
}

/** Upper-case letters and digits only: spaces, dots, dashes and the hologram's noise go. */
export function normalizePlateText(text: string): string {
  return text.toUpperCase().replace(/[^A-Z0-9]/g, '')
}

type Slot = 'L' | 'D'

function asDigit(c: string): { c: string; cost: number } {
  if (c === '?') return { c: '0', cost: 0 }
  if (c >= '0' && c <= '9') return { c, cost: 0 }
  const d = LETTER_AS_DIGIT[c]
  return d ? { c: d, cost: CONFUSION_COST } : { c: '0', cost: 1 }
}

function asLetter(c: string): { c: string; cost: number } {
  if (c === '?') return { c: 'X', cost: 0 }
  if (c >= 'A' && c <= 'Z') return { c, cost: 0 }
  const l = DIGIT_AS_LETTER[c]
  return l ? { c: l, cost: CONFUSION_COST } : { c: 'X', cost: 1 }
}

/**
 * Best reading of `text` as the runs (each [class or literal, min, max]): the text as it is, or with one
 * character dropped (an extra one was read) or one wildcard inserted (one was missed), each edit costing 1.
 */
function matchRuns(
  text: string,
  runs: ReadonlyArray<readonly [Slot | string, number, number]>,
): { value: string; cost: number } | undefined {
  let best = matchRunsStrict(text, runs)
  const consider = (variant: string): void => {
    const r = matchRunsStrict(variant, runs)
    if (r && (!best || r.cost + 1 < best.cost)) best = { value: r.value, cost: r.cost + 1 }
  }
  if (text.length > 6) for (let i = 0; i < text.length; i++) consider(text.slice(0, i) + text.slice(i + 1))
  for (let i = 0; i <= text.length; i++) consider(text.slice(0, i) + '?' + text.slice(i))
  return best
}

function matchRunsStrict(
  text: string,
  runs: ReadonlyArray<readonly [Slot | string, number, number]>,
): { value: string; cost: number } | undefined {
  let best: { value: string; cost: number } | undefined
  const walk = (run: number, pos: number, value: string, cost: number): void => {
    if (best && cost >= best.cost) return
    if (run === runs.length) {
      if (pos === text.length) best = { value, cost }
      return
    }
    const [cls, min, max] = runs[run] as readonly [string, number, number]
    for (let n = min; n <= max && pos + n <= text.length; n++) {
      let v = ''
      let c = 0
      for (let k = 0; k < n; k++) {
        const ch = text[pos + k] as string
        if (cls === 'L' || cls === 'D') {
          const r = cls === 'L' ? asLetter(ch) : asDigit(ch)
          v += r.c
          c += r.cost
        } else {
          const want = cls[k] as string
          const r = /[A-Z]/.test(want) ? asLetter(ch) : asDigit(ch)
          v += want
          c += ch === '?' ? 0 : r.c === want ? r.cost : 1
        }
      }
      walk(run + 1, pos + n, value + v, cost + c)
    }
  }
  walk(0, 0, '', 0)
  return best
}

const STATE_RUNS = [
  ['L', 2, 2],
  ['D', 1, 2],
  ['L', 0, 3],
  ['D', 1, 4],
] as const
const BHARAT_RUNS = [
  ['D', 2, 2],
  ['BH', 2, 2],
  ['D', 4, 4],
  ['L', 1, 2],
] as const

/** The nearest Indian plate to `text`, or undefined when it is too far from any (see `maxCost`). */
export function readPlate(text: string, maxCost = 1): PlateReading | undefined {
  let t = normalizePlateText(text)
  // "IND" of the plate's left strip, when the detector took it into the line
  if (t.startsWith('IND') && t.length >= 9) t = t.slice(3)
  if (t.length < 5 || t.length > 14) return undefined
  const candidates: PlateReading[] = []
  const state = matchRuns(t, STATE_RUNS)
  if (state) {
    const code = state.value.slice(0, 2)
    // the state code must be a real one: anything else costs more than any reading may
    const known = STATE_CODES.has(code)
    const cost = state.cost + (known ? 0 : 1.5)
    // a well-formed state plate has at least 7 characters (KA01M12 is rare; 1-digit numbers rarer)
    const length = state.value.length
    candidates.push({ plate: state.value, format: 'state', cost: cost + (length < 7 ? 1 : 0) })
  }
  const bharat = matchRuns(t, BHARAT_RUNS)
  if (bharat) candidates.push({ plate: bharat.value, format: 'bharat', cost: bharat.cost })
  candidates.sort((a, b) => a.cost - b.cost)
  const found = candidates[0]
  return found && found.cost <= maxCost ? found : undefined
}
