import { createHash } from 'node:crypto'

/**
 * eLocs of the gazetteer: six characters of 0–9 and A–Z without I and O (34 symbols, about 1.5 billion
 * codes), derived from a stable key of each place (its kind and where it is, never its row number), so a
 * rebuild of the same data gives every place the same code. Collisions are settled deterministically:
 * keys are taken in sorted order and a later key that meets a taken code rehashes with a counter.
 * Places the analyst saves get eight-character codes, so they never meet a gazetteer code.
 */
export const ELOC_ALPHABET = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ'

export function elocCode(key: string, length = 6): string {
  const digest = createHash('sha256').update(key).digest()
  let out = ''
  for (let i = 0; i < length; i++) out += ELOC_ALPHABET[digest[i]! % ELOC_ALPHABET.length]
  return out
}

/** Codes for every key, collision-free, independent of the keys' input order. Keys must be unique. */
export function assignElocs(
  keys: readonly string[],
  code: (key: string) => string = elocCode,
): Map<string, string> {
  const sorted = [...keys].sort()
  const taken = new Set<string>()
  const out = new Map<string, string>()
  for (const key of sorted) {
    if (out.has(key)) throw new Error(`duplicate eLoc key: ${key}`)
    let attempt = 0
    let value = code(key)
    while (taken.has(value)) value = code(`${key}#${++attempt}`)
    taken.add(value)
    out.set(key, value)
  }
  return out
}

export const isGazetteerEloc = (value: string): boolean => /^[0-9A-HJ-NP-Z]{6}$/.test(value)
