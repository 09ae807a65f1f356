import { MVT_CONTENT_TYPE, TILE_THINNING_HEADER } from '../../contract/gis/tiles'
import { HttpError } from '../http-util'
import { DatabaseWorkspaceError } from '../postgis/workspace'
import { TileNotFound, VectorTiles } from '../postgis/tiles'
import { parseTileAddress } from '../postgis/tiles-sql'
import { BEARER, type Route } from '../router'
import type { ServiceContext } from '../service-context'

/**
 * `GET /tiles/{dataset}/{z}/{x}/{y}.mvt` (local extension, gis group's bearer token; decision 031): a
 * Mapbox vector tile of a PostGIS workspace's dataset, cut by the database. 200 with the tile, 204 when no
 * feature is in it, 400 naming z, x or y, 404 for a dataset outside the workspace's schemas, 501 when the
 * workspace is a folder (tiles are a database feature). `X-Tile-Thinning` says how the tile was cut.
 */
export function tilesRoutes(ctx: ServiceContext, tiles?: VectorTiles): Route[] {
  const database = ctx.database
  const service = tiles ?? (database ? new VectorTiles(database) : undefined)
  return [
    {
      method: 'GET',
      path: '/tiles/:dataset/:z/:x/:y',
      auth: BEARER,
      body: 'none',
      handle: async ({ params, res }) => {
        if (!service)
          throw new HttpError(
            501,
            "vector tiles are a database feature: this service's workspace is a folder; start it with --workspace postgresql://… to serve /tiles",
            { code: 'tiles-need-database' },
          )
        const address = parseTileAddress(params.z!, params.x!, params.y!)
        if (!address.ok) throw new HttpError(400, address.message, { field: address.field })
        let tile
        try {
          tile = await service.tile(params.dataset!, address.tile)
        } catch (error) {
          if (error instanceof TileNotFound) throw new HttpError(404, error.message, { field: 'dataset' })
          if (error instanceof DatabaseWorkspaceError)
            throw new HttpError(500, error.message, { code: `database-${error.problem}` })
          throw error
        }
        const headers = { 'cache-control': 'no-store', [TILE_THINNING_HEADER]: tile.thinning }
        if (tile.bytes.length === 0) {
          res.writeHead(204, headers)
          res.end()
          return
        }
        res.writeHead(200, {
          ...headers,
          'content-type': MVT_CONTENT_TYPE,
          'content-length': String(tile.bytes.length),
        })
        res.end(tile.bytes)
      },
    },
  ]
}
