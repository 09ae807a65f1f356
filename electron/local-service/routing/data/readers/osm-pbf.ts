import { createReadStream, promises as fs } from 'node:fs'
import { OSMTransform } from 'osm-pbf-parser-node'
import { GraphBuilder, type Tags } from '../graph-builder'
import type { ReadProgress } from './read-progress'

interface PbfWay {
  type: 'way'
  id: number
  refs: number[]
  tags?: Record<string, string>
}

interface PbfNode {
  type: 'node'
  id: number
  lat: number
  lon: number
}

/** The parser throws inside `_transform` on malformed input; turn that into a stream error. */
class GuardedOsmTransform extends OSMTransform {
  override _transform(chunk: Buffer, encoding: BufferEncoding, next: (error?: Error | null) => void): void {
    try {
      super._transform(chunk, encoding, next)
    } catch (error) {
      next(error as Error)
    }
  }

  override _flush(done: (error?: Error | null) => void): void {
    try {
      super._flush(done)
    } catch (error) {
      done(error as Error)
    }
  }
}

/** Whether the file starts like an .osm.pbf: a short BlobHeader of type OSMHeader. */
async function looksLikePbf(file: string): Promise<boolean> {
  const handle = await fs.open(file, 'r')
  try {
    const head = Buffer.alloc(64)
    const { bytesRead } = await handle.read(head, 0, 64, 0)
    if (bytesRead < 8) return false
    const length = head.readUInt32BE(0)
    return length > 0 && length < 64 * 1024 && head.subarray(4, bytesRead).includes('OSMHeader')
  } finally {
    await handle.close()
  }
}

/** One pass over an .osm.pbf file, batch by batch, with byte progress and cancellation between batches. */
async function pass(
  file: string,
  withTags: { node: boolean; way: boolean | string[]; relation: boolean },
  progress: ReadProgress,
  onBatch: (items: Array<{ type: string }>) => void,
): Promise<void> {
  const size = (await fs.stat(file)).size
  let read = 0
  const input = createReadStream(file, { highWaterMark: 1 << 20 })
  input.on('data', (chunk) => {
    read += chunk.length
  })
  const parsed = input.pipe(new GuardedOsmTransform({ withTags, withInfo: false }))
  input.on('error', (error) => parsed.destroy(error))
  try {
    for await (const batch of parsed as AsyncIterable<Array<{ type: string }>>) {
      progress.check()
      onBatch(batch)
      progress.bytes(read, size)
    }
  } catch (error) {
    input.destroy()
    if ((error as Error).name === 'ImportCancelled') throw error
    throw new Error(`${file} is not a readable .osm.pbf file: ${(error as Error).message}`)
  }
}

/**
 * Read an .osm.pbf extract in two passes: the ways first (routable ones kept, their node ids collected),
 * then the nodes (only the coordinates of those ids kept). Memory follows the road network, not the file.
 */
export async function readOsmPbf(
  builder: GraphBuilder,
  file: string,
  progress: { ways: ReadProgress; nodes: ReadProgress },
): Promise<void> {
  if (!(await looksLikePbf(file)))
    throw new Error(`${file} is not an .osm.pbf file (no OSMHeader block at its start)`)
  await pass(file, { node: false, way: true, relation: false }, progress.ways, (batch) => {
    for (const item of batch) {
      if (item.type !== 'way') continue
      const way = item as PbfWay
      const tags = (way.tags ?? {}) as Tags
      if (!tags.highway || !GraphBuilder.routable(tags)) continue
      const refs = new Array<number>(way.refs.length)
      for (let i = 0; i < refs.length; i++) refs[i] = builder.nodeForId(way.refs[i]!)
      builder.addWay(refs, tags)
    }
  })
  await pass(file, { node: false, way: false, relation: false }, progress.nodes, (batch) => {
    for (const item of batch) {
      if (item.type !== 'node') continue
      const node = item as PbfNode
      const d = builder.lookupId(node.id)
      if (d >= 0) builder.setCoord(d, node.lon, node.lat)
    }
  })
}
