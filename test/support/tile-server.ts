import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { deflateSync } from 'node:zlib'

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32(bytes: Buffer): number {
  let c = 0xffffffff
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'ascii')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}

/** A 256 × 256 RGB PNG: a light land colour with a darker road across it (a tile as servers draw them). */
export function lightTilePng(): Buffer {
  const size = 256
  const rows: Buffer[] = []
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3)
    for (let x = 0; x < size; x++) {
      const road = Math.abs(x - y) < 3
      const [r, g, b] = road ? [200, 140, 60] : [236, 232, 222]
      row.set([r, g, b], 1 + x * 3)
    }
    rows.push(row)
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header.set([8, 2, 0, 0, 0], 8) // 8-bit RGB, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** An XYZ tile server on 127.0.0.1 answering every `/{z}/{x}/{y}.png` with the same light tile. */
export async function startTileServer(): Promise<{
  template: string
  requests: () => number
  stop(): Promise<void>
}> {
  const png = lightTilePng()
  let requests = 0
  const server: Server = createServer((req, res) => {
    if (!/^\/\d+\/\d+\/\d+\.png$/.test(req.url ?? '')) {
      res.writeHead(404).end()
      return
    }
    requests++
    res.writeHead(200, {
      'content-type': 'image/png',
      'content-length': png.length,
      'access-control-allow-origin': '*',
    })
    res.end(png)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    template: `http://127.0.0.1:${port}/{z}/{x}/{y}.png`,
    requests: () => requests,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
