// Draw the app icon (a map pin over a globe grid) as PNG and ICO in build/, with no image tools.
import { writeFileSync, mkdirSync } from 'node:fs'
import { deflateSync } from 'node:zlib'

function crc32(buf) {
  let c,
    crc = 0xffffffff
  for (const byte of buf) {
    c = (crc ^ byte) & 0xff
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    crc = (crc >>> 8) ^ c
  }
  return (crc ^ 0xffffffff) >>> 0
}

function chunk(type, data) {
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  const td = Buffer.concat([Buffer.from(type), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(td))
  return Buffer.concat([len, td, crc])
}

function png(size) {
  const raw = Buffer.alloc(size * (size * 4 + 1))
  const c = size / 2
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0
    for (let x = 0; x < size; x++) {
      const dx = (x + 0.5 - c) / c
      const dy = (y + 0.5 - c) / c
      const r = Math.hypot(dx, dy)
      let rgba = [0, 0, 0, 0]
      if (r < 0.92) {
        rgba = [22, 78, 99, 255] // deep teal disc
        const lat = Math.asin(Math.max(-1, Math.min(1, dy / 0.92)))
        const lon = Math.asin(Math.max(-1, Math.min(1, dx / 0.92 / Math.cos(lat || 0.0001))))
        const grid = (v) => Math.abs(((v * 180) / Math.PI / 30) % 1) < 0.06
        if (grid(lat) || grid(lon)) rgba = [45, 130, 150, 255]
        if (r > 0.86) rgba = [12, 50, 64, 255]
      }
      // Pin: circle head with a pointed tail.
      const px = dx,
        py = dy + 0.12
      const head = Math.hypot(px, py + 0.18) < 0.34
      const tail = py > -0.18 && py < 0.55 && Math.abs(px) < 0.3 * (1 - (py + 0.18) / 0.73)
      if (head || tail) rgba = [242, 106, 61, 255]
      if (Math.hypot(px, py + 0.18) < 0.13) rgba = [255, 255, 255, 255]
      rgba.forEach((v, i) => (raw[y * (size * 4 + 1) + 1 + x * 4 + i] = v))
    }
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header[8] = 8
  header[9] = 6
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

function ico(pngData) {
  const head = Buffer.alloc(6 + 16)
  head.writeUInt16LE(0, 0)
  head.writeUInt16LE(1, 2)
  head.writeUInt16LE(1, 4)
  head[6] = 0 // 256 px
  head[7] = 0
  head.writeUInt16LE(1, 10)
  head.writeUInt16LE(32, 12)
  head.writeUInt32LE(pngData.length, 14)
  head.writeUInt32LE(22, 18)
  return Buffer.concat([head, pngData])
}

mkdirSync('build', { recursive: true })
writeFileSync('build/icon.png', png(1024))
writeFileSync('build/icon.ico', ico(png(256)))
writeFileSync('resources/icon.png', png(256))
console.log('wrote build/icon.png, build/icon.ico, resources/icon.png')
