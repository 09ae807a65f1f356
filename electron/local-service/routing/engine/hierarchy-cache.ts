import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { writeFileAtomic } from '../../../base/atomic-write'
import type { ContractionHierarchy } from './ch'

/**
 * Contraction hierarchies kept on disk beside the workspace's networks, so a metric is contracted once per
 * network, not once per start. A file names the network's build and the metric; any other network build
 * or format version simply misses the cache.
 */
const MAGIC = 'GACH'
const VERSION = 1

const ARRAYS = [
  'rank',
  'upStart',
  'upHead',
  'upW',
  'upDur',
  'upDist',
  'upArc',
  'downStart',
  'downTail',
  'downW',
  'downDur',
  'downDist',
  'downArc',
  'arcFirst',
  'arcSecond',
  'arcEdge',
] as const

export function hierarchyFile(
  cacheDir: string,
  networkId: string,
  fingerprint: string,
  metricKey: string,
): string {
  const safe = `${networkId}-${fingerprint}-${metricKey}`.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 180)
  return path.join(cacheDir, `${safe}.ch`)
}

export function encodeHierarchy(ch: ContractionHierarchy): Uint8Array {
  const lengths = ARRAYS.map((name) => ch[name].length)
  const head = new TextEncoder().encode(
    JSON.stringify({ nodeCount: ch.nodeCount, shortcuts: ch.shortcuts, lengths }),
  )
  const start = (12 + head.length + 7) & ~7
  const total = start + lengths.reduce((s, n) => s + n * 4, 0)
  const out = new Uint8Array(total)
  out.set(new TextEncoder().encode(MAGIC), 0)
  const view = new DataView(out.buffer)
  view.setUint32(4, VERSION, true)
  view.setUint32(8, head.length, true)
  out.set(head, 12)
  let offset = start
  for (const name of ARRAYS) {
    const a = ch[name]
    out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), offset)
    offset += a.byteLength
  }
  return out
}

export function decodeHierarchy(bytes: Uint8Array): ContractionHierarchy | undefined {
  if (bytes.length < 12 || new TextDecoder().decode(bytes.subarray(0, 4)) !== MAGIC) return undefined
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (view.getUint32(4, true) !== VERSION) return undefined
  const length = view.getUint32(8, true)
  const head = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + length))) as {
    nodeCount: number
    shortcuts: number
    lengths: number[]
  }
  const aligned = (bytes.byteOffset & 3) === 0 ? bytes : bytes.slice()
  let offset = aligned.byteOffset + ((12 + length + 7) & ~7)
  const out: Record<string, Int32Array> = {}
  for (let i = 0; i < ARRAYS.length; i++) {
    const n = head.lengths[i] ?? 0
    if (offset + n * 4 > aligned.byteOffset + aligned.byteLength) return undefined
    out[ARRAYS[i]!] = new Int32Array(aligned.buffer, offset, n)
    offset += n * 4
  }
  return { nodeCount: head.nodeCount, shortcuts: head.shortcuts, ...out } as unknown as ContractionHierarchy
}

export function readHierarchy(file: string, nodeCount: number): ContractionHierarchy | undefined {
  if (!existsSync(file)) return undefined
  try {
    const ch = decodeHierarchy(new Uint8Array(readFileSync(file)))
    return ch && ch.nodeCount === nodeCount ? ch : undefined
  } catch {
    return undefined
  }
}

export async function writeHierarchy(file: string, ch: ContractionHierarchy): Promise<void> {
  await writeFileAtomic(file, encodeHierarchy(ch), { mode: 0o644 })
}
