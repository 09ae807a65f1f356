/**
 * The length (2 to 4) of the multi-byte UTF-8 sequence whose lead byte (0x80 or more) is `bytes[i]`, when
 * it is well-formed as the WHATWG decoder checks it (no overlong form, surrogate or code point past
 * U+10FFFF, and whole before `end`); 0 when it is not, where a decoder would put U+FFFD.
 */
export function utf8SequenceLength(bytes: Uint8Array, i: number, end: number): number {
  const c = bytes[i]!
  let length: number
  let low = 0x80
  let high = 0xbf
  if (c >= 0xc2 && c <= 0xdf) length = 2
  else if (c >= 0xe0 && c <= 0xef) {
    length = 3
    if (c === 0xe0) low = 0xa0
    else if (c === 0xed) high = 0x9f
  } else if (c >= 0xf0 && c <= 0xf4) {
    length = 4
    if (c === 0xf0) low = 0x90
    else if (c === 0xf4) high = 0x8f
  } else return 0
  if (i + length > end) return 0
  const c1 = bytes[i + 1]!
  if (c1 < low || c1 > high) return 0
  for (let k = 2; k < length; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return 0
  return length
}
