/**
 * Decoding of PaddleOCR's recogniser (CTC): per time step a distribution over [blank, dictionary…, space].
 * Plates carry only Latin letters and digits, so the decoder picks among those (and blank and space): a
 * Chinese character that happens to score higher on a blurry glyph is not a plate character and would only
 * hide the letter behind it.
 */
export const REC_HEIGHT = 48

export interface Recognition {
  text: string
  /** Mean probability of the kept characters (0 when none). */
  confidence: number
}

export interface Alphabet {
  /** Output column of each allowed character, blank (0) excluded. */
  columns: Int32Array
  chars: string[]
}

/** The allowed characters' columns in the model's output, from the dictionary's lines (column = line + 1). */
export function plateAlphabet(dictionary: readonly string[]): Alphabet {
  const columns: number[] = []
  const chars: string[] = []
  dictionary.forEach((line, i) => {
    if (/^[A-Za-z0-9]$/.test(line)) {
      columns.push(i + 1)
      chars.push(line.toUpperCase())
    }
  })
  // the space column follows the dictionary (use_space_char)
  columns.push(dictionary.length + 1)
  chars.push(' ')
  return { columns: Int32Array.from(columns), chars }
}

/** Greedy CTC decoding of one sequence (`steps` × `classes` probabilities starting at `offset`). */
export function ctcDecode(
  probs: Float32Array,
  offset: number,
  steps: number,
  classes: number,
  alphabet: Alphabet,
): Recognition {
  let text = ''
  let sum = 0
  let count = 0
  let previous = -1
  for (let t = 0; t < steps; t++) {
    const row = offset + t * classes
    let best = 0
    let bestP = probs[row] as number
    for (let k = 0; k < alphabet.columns.length; k++) {
      const p = probs[row + (alphabet.columns[k] as number)] as number
      if (p > bestP) {
        bestP = p
        best = k + 1
      }
    }
    if (best !== 0 && best !== previous) {
      text += alphabet.chars[best - 1]
      sum += bestP
      count++
    }
    previous = best
  }
  return { text: text.trim(), confidence: count ? sum / count : 0 }
}
