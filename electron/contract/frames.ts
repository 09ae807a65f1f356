/**
 * How the browser host sends an operation's answer that holds bytes (a join's rows): the JSON of the answer
 * with each byte array replaced by a reference `{"$bytes": [offset, length]}`, a newline, then the bytes
 * themselves one after another. The bytes cross as they are — not as JSON text of numbers, not escaped in
 * a string — and the page reads them as views of the one buffer it received. (In Electron, IPC's
 * structured clone carries byte arrays as they are, so nothing like this is needed there.)
 */

export const FRAMES_CONTENT_TYPE = 'application/x-geo-frames'

const NEWLINE = 10

/** The answer's JSON with its byte arrays taken out, and those byte arrays; none when it holds none. */
export function encodeFrames(value: unknown): { json: string; parts: Uint8Array[] } {
  const parts: Uint8Array[] = []
  let offset = 0
  const json = JSON.stringify(value, (_key, v: unknown) => {
    if (!(v instanceof Uint8Array)) return v
    parts.push(v)
    const ref = { $bytes: [offset, v.byteLength] }
    offset += v.byteLength
    return ref
  })
  return { json, parts }
}

function isBytesRef(v: unknown): v is { $bytes: [number, number] } {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false
  const keys = Object.keys(v)
  const ref = (v as { $bytes?: unknown }).$bytes
  return (
    keys.length === 1 &&
    Array.isArray(ref) &&
    ref.length === 2 &&
    Number.isSafeInteger(ref[0]) &&
    Number.isSafeInteger(ref[1])
  )
}

/** The answer back from a body written by `encodeFrames` (JSON, newline, bytes). */
export function decodeFrames(body: ArrayBuffer): unknown {
  const all = new Uint8Array(body)
  const newline = all.indexOf(NEWLINE)
  if (newline < 0) throw new Error('the answer has no end to its JSON part')
  const json = new TextDecoder().decode(all.subarray(0, newline))
  const base = newline + 1
  return JSON.parse(json, (_key, v: unknown) => {
    if (!isBytesRef(v)) return v
    const [offset, length] = v.$bytes
    if (offset < 0 || length < 0 || base + offset + length > all.byteLength)
      throw new Error('the answer refers to bytes it does not hold')
    return new Uint8Array(body, base + offset, length)
  })
}
