import { get as getProjection } from 'ol/proj'
import TileState from 'ol/TileState'
import type VectorTile from 'ol/VectorTile'
import type RenderFeature from 'ol/render/Feature'
import { describe, expect, it } from 'vitest'
import { createVectorTileLayer } from '../../../../../src/features/map/layers/vector-tiles'
import { singleStyle } from '../../../../../src/features/map/layers/symbology'
import { olStyleFunction } from '../../../../../src/features/map/layers/ol-style'

/** Protocol-buffer pieces: a varint, and a field (varint, or bytes with their length). */
const varint = (n: number): number[] => (n < 0x80 ? [n] : [(n & 0x7f) | 0x80, ...varint(n >>> 7)])
const field = (tag: number, value: number | number[]): number[] =>
  typeof value === 'number'
    ? [...varint(tag << 3), ...varint(value)]
    : [...varint((tag << 3) | 2), ...varint(value.length), ...value]
const text = (s: string): number[] => [...new TextEncoder().encode(s)]

/** A Mapbox vector tile of one layer `places` with one point at the tile's centre, `name` = "Delhi". */
function oneFeatureTile(): Uint8Array {
  const feature = [
    ...field(1, 7),
    ...field(2, [0, 0]),
    ...field(3, 1),
    // MoveTo(1) then (2048, 2048), zig-zag encoded.
    ...field(4, [...varint(9), ...varint(4096), ...varint(4096)]),
  ]
  const layer = [
    ...field(15, 2),
    ...field(1, text('places')),
    ...field(2, feature),
    ...field(3, text('name')),
    ...field(4, field(1, text('Delhi'))),
    ...field(5, 4096),
  ]
  return new Uint8Array(field(3, layer))
}

/** Load one tile of the layer's source as OpenLayers does when the map needs it. */
async function loadTile(
  source: ReturnType<typeof createVectorTileLayer>['source'],
  z: number,
  x: number,
  y: number,
) {
  const tile = source.getTile(z, x, y, 1, getProjection('EPSG:3857')!) as unknown as {
    getState(): number
    load(): void
  }
  tile.load()
  for (
    let i = 0;
    i < 50 && (tile.getState() === TileState.IDLE || tile.getState() === TileState.LOADING);
    i++
  )
    await new Promise((r) => setTimeout(r, 10))
  return tile
}

describe('vector-tile layer over a bridge loader', () => {
  it('asks the loader for the tile it needs and draws its features with the layer list styles', async () => {
    const asked: number[][] = []
    const { source, counters } = createVectorTileLayer({
      key: 'gis.dataset:places',
      load: async (z, x, y) => {
        asked.push([z, x, y])
        return oneFeatureTile()
      },
    })
    const tile = await loadTile(source, 5, 22, 13)
    expect(asked).toEqual([[5, 22, 13]])
    expect(tile.getState()).toBe(TileState.LOADED)
    expect(counters).toMatchObject({ requested: 1, loaded: 1, failed: 0, features: 1 })
    // The tile's source tile holds the feature, with its properties.
    const features = source
      .getSourceTiles(1, getProjection('EPSG:3857')!, tile as never)
      .flatMap((t: VectorTile<RenderFeature>) => t.getFeatures() ?? [])
    expect(features.map((f) => f.get('name'))).toEqual(['Delhi'])
    // The same symbology as other layers: the list's style function draws a RenderFeature.
    const style = olStyleFunction(singleStyle('#1f77b4', 'point'), 'point')
    expect(style(features[0]!, 100)).toBeTruthy()
  })

  it('marks a tile with no feature as loaded and empty, and a refused one as failed', async () => {
    const empty = createVectorTileLayer({ key: 'a', load: async () => new Uint8Array(0) })
    expect((await loadTile(empty.source, 3, 0, 0)).getState()).toBe(TileState.LOADED)
    expect(empty.counters).toMatchObject({ loaded: 1, features: 0 })
    const refused = createVectorTileLayer({
      key: 'b',
      load: async () => {
        throw new Error('gis.tile: no dataset named "x"')
      },
    })
    expect((await loadTile(refused.source, 3, 0, 0)).getState()).toBe(TileState.ERROR)
    expect(refused.counters).toMatchObject({ failed: 1, loaded: 0 })
  })
})
