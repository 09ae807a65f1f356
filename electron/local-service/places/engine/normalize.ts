/**
 * Text keys of the places engine: how names and queries are compared. Pure functions, shared by the
 * gazetteer build (scripts/data-places.ts) and the engine, so the index and the queries agree.
 *
 * - `normalize`: the search key of a text: Latin letters without diacritics in lower case, digits,
 *   Devanagari letters (nukta and joiners removed), everything else a single space.
 * - `romanize`: Devanagari to plain Latin letters (a simple phonetic scheme with the final schwa dropped),
 *   so that a Hindi query finds places known only by their Latin name and the other way round.
 * - `phoneticKey`: a coarser key of a Latin token that absorbs the usual spelling variation of Indian names
 *   (aa/a, ee/i, oo/u, w/v, z/j, aspirates, doubled letters): `delhi` and `dilli` share `dili`.
 */

const DEVANAGARI = /[\u0900-\u097F]/
export const hasDevanagari = (text: string): boolean => DEVANAGARI.test(text)

/** Lower-case search key: diacritics stripped, punctuation to spaces, `&` to `and`, apostrophes and dots dropped. */
export function normalize(text: string): string {
  let t = text.normalize('NFD')
  // Combining marks of Latin letters (ā → a); Devanagari signs are letters here, except nukta and joiners.
  t = t.replace(/[\u0300-\u036f\u093c\u200c\u200d]/g, '')
  t = t.replace(/\u0901/g, '\u0902') // chandrabindu → anusvara
  t = t.toLowerCase()
  t = t.replace(/&/g, ' and ').replace(/['’`.]/g, '')
  t = t.replace(/[\u0964\u0965]/g, ' ').replace(/[^a-z0-9\p{Script=Devanagari}]+/gu, ' ')
  return t.trim()
}

/** The tokens of a text's search key. */
export function tokens(text: string): string[] {
  const n = normalize(text)
  return n ? n.split(' ') : []
}

const VOWELS: Record<string, string> = {
  अ: 'a',
  आ: 'a',
  इ: 'i',
  ई: 'i',
  उ: 'u',
  ऊ: 'u',
  ऋ: 'ri',
  ए: 'e',
  ऐ: 'ai',
  ओ: 'o',
  औ: 'au',
  ऑ: 'o',
  ऍ: 'e',
}
const SIGNS: Record<string, string> = {
  'ा': 'a',
  'ि': 'i',
  'ी': 'i',
  'ु': 'u',
  'ू': 'u',
  'ृ': 'ri',
  'े': 'e',
  'ै': 'ai',
  'ो': 'o',
  'ौ': 'au',
  'ॉ': 'o',
  'ॅ': 'e',
}
const CONSONANTS: Record<string, string> = {
  क: 'k',
  ख: 'kh',
  ग: 'g',
  घ: 'gh',
  ङ: 'n',
  च: 'ch',
  छ: 'chh',
  ज: 'j',
  झ: 'jh',
  ञ: 'n',
  ट: 't',
  ठ: 'th',
  ड: 'd',
  ढ: 'dh',
  ण: 'n',
  त: 't',
  थ: 'th',
  द: 'd',
  ध: 'dh',
  न: 'n',
  प: 'p',
  फ: 'ph',
  ब: 'b',
  भ: 'bh',
  म: 'm',
  य: 'y',
  र: 'r',
  ल: 'l',
  व: 'v',
  श: 'sh',
  ष: 'sh',
  स: 's',
  ह: 'h',
  ळ: 'l',
  ऴ: 'l',
  ऩ: 'n',
  ऱ: 'r',
}
/** Consonants written with a nukta, after NFD they arrive as base + U+093C; normalize() drops the nukta. */
const NUKTA: Record<string, string> = { क: 'q', ज: 'z', फ: 'f', ड: 'r', ढ: 'rh' }
const VIRAMA = '\u094d'
const ANUSVARA = '\u0902'
const VISARGA = '\u0903'
const DIGITS = '०१२३४५६७८९'

/**
 * Devanagari to Latin, word by word. Each consonant carries the inherent `a` unless a vowel sign or a
 * virama follows; the inherent `a` at the end of a word of more than one syllable is dropped
 * (राम → ram, दिल्ली → dilli, मुंबई → mumbai). Latin letters and digits pass through.
 */
export function romanize(text: string): string {
  const chars = [...text.normalize('NFD').replace(/[\u200c\u200d]/g, '')]
  let out = ''
  let syllables = 0
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!
    const next = chars[i + 1]
    if (CONSONANTS[c] !== undefined) {
      let latin = CONSONANTS[c]!
      let j = i + 1
      if (next === '\u093c') {
        latin = NUKTA[c] ?? latin
        j++
      }
      const after = chars[j]
      out += latin
      if (after === VIRAMA) {
        i = j
        continue
      }
      syllables++
      if (after !== undefined && SIGNS[after] !== undefined) {
        out += SIGNS[after]
        i = j
        continue
      }
      // Inherent vowel; dropped at the end of a word of several syllables (schwa deletion).
      const endOfWord = after === undefined || !/[\u0900-\u097f]/.test(after)
      const nasalEnd =
        (after === ANUSVARA || after === VISARGA) &&
        (chars[j + 1] === undefined || !/[\u0900-\u097f]/.test(chars[j + 1]!))
      if (!(endOfWord && syllables > 1) || nasalEnd) out += 'a'
      i = j - 1
      continue
    }
    if (VOWELS[c] !== undefined) {
      out += VOWELS[c]
      syllables++
      continue
    }
    if (c === ANUSVARA || c === '\u0901') {
      const n = chars[i + 1]
      out += n !== undefined && /[पफबभम]/.test(n) ? 'm' : 'n'
      continue
    }
    if (c === VISARGA) {
      out += 'h'
      continue
    }
    const digit = DIGITS.indexOf(c)
    if (digit >= 0) {
      out += String(digit)
      continue
    }
    if (c === '\u093c' || c === VIRAMA || /[\u0900-\u097f]/.test(c)) continue
    if (/\s/.test(c)) syllables = 0
    out += c
  }
  return out
}

/** A coarse phonetic key of one Latin token (see the module comment). Digits are kept as they are. */
export function phoneticKey(token: string): string {
  if (/^\d+$/.test(token)) return token
  let t = token.toLowerCase()
  t = t
    .replace(/ck/g, 'k')
    .replace(/q/g, 'k')
    .replace(/c(?!h)/g, 'k')
    .replace(/ph/g, 'f')
    .replace(/z/g, 'j')
    .replace(/x/g, 'ks')
    .replace(/w/g, 'v')
    .replace(/sh/g, 's')
    .replace(/chh/g, 'c')
    .replace(/ch/g, 'c')
    // Aspirates and other h after a consonant: kh, gh, th, dh, bh, jh, rh, lh …
    .replace(/([bcdfgjklmnprstv])h/g, '$1')
    .replace(/ee|ii|ea|ie|ey|e|y/g, 'i')
    .replace(/oo|uu|ou|o|w/g, 'u')
    .replace(/aa/g, 'a')
    .replace(/au/g, 'u')
    .replace(/ai/g, 'i')
  // Doubled letters collapse; a final a (schwa) goes.
  t = t.replace(/(.)\1+/g, '$1')
  if (t.length > 3) t = t.replace(/a$/, '')
  return t
}

let rowA = new Int32Array(64)
let rowB = new Int32Array(64)
let rowC = new Int32Array(64)

/**
 * Damerau–Levenshtein distance (optimal string alignment) between `a` and the first `bLength` characters
 * of `b`, bounded: returns max + 1 as soon as it is above max. Allocation-free (it runs over many words).
 */
export function editDistance(a: string, b: string, max: number, bLength = b.length): number {
  const la = a.length
  const lb = Math.min(bLength, b.length)
  if (Math.abs(la - lb) > max) return max + 1
  if (la === 0) return lb
  if (lb === 0) return la
  if (rowA.length <= lb) {
    rowA = new Int32Array(lb * 2 + 1)
    rowB = new Int32Array(lb * 2 + 1)
    rowC = new Int32Array(lb * 2 + 1)
  }
  let prev2 = rowA
  let prev = rowB
  let cur = rowC
  for (let j = 0; j <= lb; j++) prev[j] = j
  for (let i = 1; i <= la; i++) {
    cur[0] = i
    let rowMin = i
    const ca = a.charCodeAt(i - 1)
    for (let j = 1; j <= lb; j++) {
      const cb = b.charCodeAt(j - 1)
      let v = prev[j - 1]! + (ca === cb ? 0 : 1)
      const del = prev[j]! + 1
      if (del < v) v = del
      const ins = cur[j - 1]! + 1
      if (ins < v) v = ins
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) {
        const tr = prev2[j - 2]! + 1
        if (tr < v) v = tr
      }
      cur[j] = v
      if (v < rowMin) rowMin = v
    }
    if (rowMin > max) return max + 1
    const t = prev2
    prev2 = prev
    prev = cur
    cur = t
  }
  return prev[lb]! > max ? max + 1 : prev[lb]!
}

/** How many typing errors a token of this length may carry and still match. */
export function typoBudget(length: number): number {
  return length >= 8 ? 2 : length >= 4 ? 1 : 0
}
