import type { Extent } from 'ol/extent'
import MVT from 'ol/format/MVT'
import VectorTileLayer from 'ol/layer/VectorTile'
import type { Projection } from 'ol/proj'
import type RenderFeature from 'ol/render/Feature'
import VectorTileSource from 'ol/source/VectorTile'
import TileState from 'ol/TileState'
import type VectorTile from 'ol/VectorTile'

/** The zoom from which the service puts every feature in its tile; the map over-zooms these tiles. */
export const TILES_FULL_DETAIL_ZOOM = 14

/**
 * Where a tile's bytes come from: a bridge operation (the renderer never fetches the service itself, so
 * it never holds its token). Empty bytes: no feature in the tile.
 */
export type TileBytesLoader = (z: number, x: number, y: number) => Promise<Uint8Array>

export interface VectorTileCounters {
  /** Tiles asked for, tiles that arrived (empty ones too), tiles that failed, and features read. */
  requested: number
  loaded: number
  failed: number
  features: number
}

/**
 * An OpenLayers vector-tile layer over Mapbox vector tiles a loader gives (format `MVT`, 512-pixel tiles
 * of the XYZ grid in web mercator). Features are `RenderFeature`s with their properties, so the layer
 * list's style functions (which read properties and the geometry type) draw them as any other layer.
 */
export function createVectorTileLayer(options: {
  /** Names the tiles in OpenLayers' cache: a different key is a different set of tiles. */
  key: string
  load: TileBytesLoader
  properties?: Record<string, unknown>
}): {
  layer: VectorTileLayer<VectorTileSource<RenderFeature>, RenderFeature>
  source: VectorTileSource<RenderFeature>
  counters: VectorTileCounters
} {
  const format = new MVT()
  const counters: VectorTileCounters = { requested: 0, loaded: 0, failed: 0, features: 0 }
  const source = new VectorTileSource<RenderFeature>({
    format,
    maxZoom: TILES_FULL_DETAIL_ZOOM,
    // A key per tile (OpenLayers caches by it); the loader below fetches the bytes, not this "URL".
    tileUrlFunction: (coord) => `${options.key}/${coord[0]}/${coord[1]}/${coord[2]}`,
    tileLoadFunction: (tile) => {
      const vectorTile = tile as VectorTile<RenderFeature>
      const [z, x, y] = vectorTile.getTileCoord() as [number, number, number]
      vectorTile.setLoader((extent: Extent, _resolution: number, projection: Projection) => {
        counters.requested++
        options.load(z, x, y).then(
          (bytes) => {
            const features =
              bytes.byteLength === 0
                ? []
                : (format.readFeatures(
                    bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
                    { extent, featureProjection: projection },
                  ) as RenderFeature[])
            counters.loaded++
            counters.features += features.length
            vectorTile.setFeatures(features)
          },
          () => {
            counters.failed++
            vectorTile.setState(TileState.ERROR)
          },
        )
      })
    },
  })
  const layer = new VectorTileLayer({
    source,
    renderMode: 'hybrid',
    ...(options.properties ? { properties: options.properties } : {}),
  })
  return { layer, source, counters }
}
