import { createWriteStream, type WriteStream } from 'node:fs'
import { deflateSync } from 'node:zlib'

/**
 * A small .osm.pbf writer (OSM-binary: BlobHeader/Blob framing, zlib blobs, DenseNodes, ways) for tests
 * and benchmarks, so the importer is exercised on real PBF bytes made here rather than on a downloaded
 * extract. Nodes must be written before ways, as every extract orders them.
 */

class Proto {
  private parts: number[] = []
  private chunks: Uint8Array[] = []

  private flush(): void {
    if (this.parts.length) {
      this.chunks.push(Uint8Array.from(this.parts))
      this.parts = []
    }
  }

  varint(n: number): this {
    // Non-negative integers up to 2^53, without 32-bit bitwise truncation.
    while (n >= 128) {
      this.parts.push((n % 128) | 128)
      n = Math.floor(n / 128)
    }
    this.parts.push(n)
    return this
  }

  key(field: number, wire: number): this {
    return this.varint(field * 8 + wire)
  }

  bytes(field: number, data: Uint8Array): this {
    this.key(field, 2).varint(data.length)
    this.flush()
    this.chunks.push(data)
    return this
  }

  string(field: number, text: string): this {
    return this.bytes(field, new TextEncoder().encode(text))
  }

  int(field: number, n: number): this {
    return this.key(field, 0).varint(n)
  }

  packed(field: number, values: readonly number[], zigzag: boolean): this {
    const inner = new Proto()
    for (const v of values) inner.varint(zigzag ? (v >= 0 ? 2 * v : -2 * v - 1) : v)
    return this.bytes(field, inner.finish())
  }

  finish(): Uint8Array {
    this.flush()
    const total = this.chunks.reduce((s, c) => s + c.length, 0)
    const out = new Uint8Array(total)
    let o = 0
    for (const c of this.chunks) {
      out.set(c, o)
      o += c.length
    }
    return out
  }
}

const delta = (values: readonly number[]) => values.map((v, i) => (i === 0 ? v : v - values[i - 1]!))

export interface PbfNode {
  id: number
  lon: number
  lat: number
}

export interface PbfWay {
  id: number
  refs: readonly number[]
  tags: Readonly<Record<string, string>>
}

export class OsmPbfWriter {
  private readonly out: WriteStream
  private nodes: PbfNode[] = []
  private ways: PbfWay[] = []
  private wroteWays = false

  constructor(
    file: string,
    private readonly blockSize = 8000,
  ) {
    this.out = createWriteStream(file)
    const header = new Proto()
      .string(4, 'OsmSchema-V0.6')
      .string(4, 'DenseNodes')
      .string(16, 'geo-analyst tests')
    this.blob('OSMHeader', header.finish())
  }

  private blob(type: string, data: Uint8Array): void {
    const blob = new Proto().int(2, data.length).bytes(3, deflateSync(data)).finish()
    const head = new Proto().string(1, type).int(3, blob.length).finish()
    const len = Buffer.alloc(4)
    len.writeUInt32BE(head.length)
    this.out.write(len)
    this.out.write(head)
    this.out.write(blob)
  }

  private block(group: Uint8Array, strings: string[]): void {
    const table = new Proto()
    for (const s of strings) table.string(1, s)
    const block = new Proto().bytes(1, table.finish()).bytes(2, group).int(17, 100)
    this.blob('OSMData', block.finish())
  }

  node(n: PbfNode): void {
    if (this.wroteWays) throw new Error('write every node before the ways')
    this.nodes.push(n)
    if (this.nodes.length >= this.blockSize) this.flushNodes()
  }

  way(w: PbfWay): void {
    this.flushNodes()
    this.wroteWays = true
    this.ways.push(w)
    if (this.ways.length >= this.blockSize) this.flushWays()
  }

  private flushNodes(): void {
    if (this.nodes.length === 0) return
    const dense = new Proto()
      .packed(1, delta(this.nodes.map((n) => n.id)), true)
      .packed(8, delta(this.nodes.map((n) => Math.round(n.lat * 1e7))), true)
      .packed(9, delta(this.nodes.map((n) => Math.round(n.lon * 1e7))), true)
    this.block(new Proto().bytes(2, dense.finish()).finish(), [''])
    this.nodes = []
  }

  private flushWays(): void {
    if (this.ways.length === 0) return
    const strings = ['']
    const index = new Map<string, number>()
    const sid = (s: string) => {
      let i = index.get(s)
      if (i === undefined) {
        i = strings.length
        strings.push(s)
        index.set(s, i)
      }
      return i
    }
    const group = new Proto()
    for (const w of this.ways) {
      const entries = Object.entries(w.tags)
      const way = new Proto()
        .int(1, w.id)
        .packed(
          2,
          entries.map(([k]) => sid(k)),
          false,
        )
        .packed(
          3,
          entries.map(([, v]) => sid(v)),
          false,
        )
        .packed(8, delta([...w.refs]), true)
      group.bytes(3, way.finish())
    }
    this.block(group.finish(), strings)
    this.ways = []
  }

  async close(): Promise<void> {
    this.flushNodes()
    this.flushWays()
    await new Promise<void>((resolve, reject) => {
      this.out.on('error', reject)
      this.out.end(resolve)
    })
  }
}

/** The same nodes and ways as OSM XML text. */
export function osmXml(nodes: readonly PbfNode[], ways: readonly PbfWay[]): string {
  const esc = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<osm version="0.6" generator="geo-analyst tests">',
  ]
  for (const n of nodes) lines.push(`  <node id="${n.id}" lat="${n.lat}" lon="${n.lon}" version="1"/>`)
  for (const w of ways) {
    lines.push(`  <way id="${w.id}" version="1">`)
    for (const r of w.refs) lines.push(`    <nd ref="${r}"/>`)
    for (const [k, v] of Object.entries(w.tags)) lines.push(`    <tag k="${esc(k)}" v="${esc(v)}"/>`)
    lines.push('  </way>')
  }
  lines.push('</osm>')
  return lines.join('\n') + '\n'
}

/** The same ways as a GeoJSON FeatureCollection of LineStrings (as Overpass exports them). */
export function osmGeoJson(nodes: readonly PbfNode[], ways: readonly PbfWay[]): object {
  const byId = new Map(nodes.map((n) => [n.id, n]))
  return {
    type: 'FeatureCollection',
    features: ways.map((w) => ({
      type: 'Feature',
      id: `way/${w.id}`,
      properties: { '@id': `way/${w.id}`, ...w.tags },
      geometry: { type: 'LineString', coordinates: w.refs.map((r) => [byId.get(r)!.lon, byId.get(r)!.lat]) },
    })),
  }
}
