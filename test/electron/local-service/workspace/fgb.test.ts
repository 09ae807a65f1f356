import { describe, expect, it } from 'vitest'
import { buildFeature } from 'flatgeobuf/lib/mjs/generic/feature.js'
import { parseGC, parseGeometry } from 'flatgeobuf/lib/mjs/geojson/geometry.js'
import { readFlatGeobuf, writeFlatGeobuf } from '../../../../electron/local-service/workspace/fgb'
import type { DatasetFeature } from '../../../../electron/local-service/workspace/features'

const features: DatasetFeature[] = [
  { geometry: { type: 'Point', coordinates: [70, 20] }, properties: { name: 'a' } },
  { geometry: null, properties: { name: 'b' } },
  { geometry: { type: 'Point', coordinates: [72, 22] }, properties: { name: 'c' } },
]
const fields = [{ name: 'name', type: 'string' as const }]

describe('FlatGeobuf storage', () => {
  it('reads back a feature without geometry followed by others (each feature padded to 8 bytes)', () => {
    expect(readFlatGeobuf(writeFlatGeobuf(features, fields)).features).toEqual(features)
  })

  it('reads files whose features were not padded (misaligned doubles are read from a copy)', () => {
    const padded = writeFlatGeobuf(features, fields)
    // Rebuild the same file the way it was written before: features back to back, unpadded.
    const headerEnd = 8 + 4 + new DataView(padded.buffer).getUint32(8, true)
    const header = { columns: [{ name: 'name', type: 11 }] } as never
    const raw = features.map((f) =>
      buildFeature(
        f.geometry
          ? parseGeometry(f.geometry as never)
          : parseGC({ type: 'GeometryCollection', geometries: [] }),
        f.properties as never,
        header,
      ),
    )
    expect(raw.some((r) => r.length % 8 !== 0)).toBe(true)
    const file = new Uint8Array(headerEnd + raw.reduce((n, r) => n + r.length, 0))
    file.set(padded.subarray(0, headerEnd))
    let at = headerEnd
    for (const r of raw) {
      file.set(r, at)
      at += r.length
    }
    expect(readFlatGeobuf(file).features).toEqual(features)
  })
})
