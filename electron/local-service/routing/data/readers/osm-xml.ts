import { createReadStream, promises as fs } from 'node:fs'
import { StringDecoder } from 'node:string_decoder'
import { GraphBuilder } from '../graph-builder'
import type { ReadProgress } from './read-progress'

const ELEMENT = /<(\/?)(node|way|nd|tag|relation)\b([^>]*?)(\/?)>/g
const ATTR = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g

function unescapeXml(text: string): string {
  if (!text.includes('&')) return text
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (m, e: string) => {
    const lower = e.toLowerCase()
    if (lower === 'amp') return '&'
    if (lower === 'lt') return '<'
    if (lower === 'gt') return '>'
    if (lower === 'quot') return '"'
    if (lower === 'apos') return "'"
    const code = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : parseInt(lower.slice(1), 10)
    return Number.isFinite(code) ? String.fromCodePoint(code) : m
  })
}

function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  ATTR.lastIndex = 0
  let m: RegExpExecArray | null
  while ((m = ATTR.exec(text))) out[m[1]!] = unescapeXml(m[2] ?? m[3] ?? '')
  return out
}

/** Stream the elements of an OSM XML file (node, way with nd and tag children) to `onElement`. */
async function scan(
  file: string,
  progress: ReadProgress,
  onElement: (name: string, closing: boolean, selfClosing: boolean, attrs: string) => void,
): Promise<void> {
  const size = (await fs.stat(file)).size
  const decoder = new StringDecoder('utf8')
  let read = 0
  let carry = ''
  let sawOsm = false
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    progress.check()
    read += (chunk as Buffer).length
    let text = carry + decoder.write(chunk as Buffer)
    if (!sawOsm) {
      if (/<osm[\s>]/.test(text)) sawOsm = true
      else if (text.length > 4096 || read >= size)
        throw new Error(`${file} is not an OSM XML file (no <osm> element)`)
    }
    // Keep an element cut by the chunk boundary for the next round.
    const cut = text.lastIndexOf('<')
    const end = text.lastIndexOf('>')
    if (cut > end) {
      carry = text.slice(cut)
      text = text.slice(0, cut)
    } else carry = ''
    ELEMENT.lastIndex = 0
    let m: RegExpExecArray | null
    while ((m = ELEMENT.exec(text))) onElement(m[2]!, m[1] === '/', m[4] === '/', m[3]!)
    progress.bytes(read, size)
  }
  if (!sawOsm) throw new Error(`${file} is not an OSM XML file (no <osm> element)`)
}

/** Read an OSM XML extract in two passes (ways, then the nodes they use), like the .osm.pbf reader. */
export async function readOsmXml(
  builder: GraphBuilder,
  file: string,
  progress: { ways: ReadProgress; nodes: ReadProgress },
): Promise<void> {
  let inWay = false
  let refs: number[] = []
  let tags: Record<string, string> = {}
  const finishWay = () => {
    inWay = false
    if (!tags.highway || !GraphBuilder.routable(tags)) return
    builder.addWay(
      refs.map((id) => builder.nodeForId(id)),
      tags,
    )
  }
  await scan(file, progress.ways, (name, closing, selfClosing, attrs) => {
    if (name === 'way') {
      if (closing) finishWay()
      else {
        inWay = true
        refs = []
        tags = {}
        if (selfClosing) finishWay()
      }
    } else if (inWay && name === 'nd') {
      const ref = Number(attributes(attrs).ref)
      if (Number.isSafeInteger(ref)) refs.push(ref)
    } else if (inWay && name === 'tag') {
      const a = attributes(attrs)
      if (a.k !== undefined && a.v !== undefined) tags[a.k] = a.v
    }
  })
  await scan(file, progress.nodes, (name, closing, _self, attrs) => {
    if (name !== 'node' || closing) return
    const a = attributes(attrs)
    const d = builder.lookupId(Number(a.id))
    if (d < 0) return
    const lon = Number(a.lon)
    const lat = Number(a.lat)
    if (Number.isFinite(lon) && Number.isFinite(lat)) builder.setCoord(d, lon, lat)
  })
}
