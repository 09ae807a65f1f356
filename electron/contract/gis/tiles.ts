/**
 * Vector tiles of a database workspace (issue 31, decision 031): a local extension of the built-in
 * service, `GET /tiles/{dataset}/{z}/{x}/{y}.mvt` with the gis group's bearer token, answering Mapbox
 * vector tiles (`application/vnd.mapbox-vector-tile`) cut by PostGIS, 204 for a tile with no feature. The
 * service advertises it in the `X-Geo-Local-Extensions` header of its dataset list (§4.6) when its
 * workspace is a PostGIS database; a client asks for tiles only from a service that said so.
 */
export const TILES_EXTENSION = 'vector-tiles'
export const MVT_CONTENT_TYPE = 'application/vnd.mapbox-vector-tile'
/** How the service cut a tile: every feature, thinned on the fly by the pixel grid, or from an overview. */
export const TILE_THINNING_HEADER = 'x-tile-thinning'

/** The path of one tile below the service's origin, the dataset name as one percent-encoded segment. */
export function tilePath(dataset: string, z: number, x: number, y: number): string {
  return `/tiles/${encodeURIComponent(dataset)}/${z}/${x}/${y}.mvt`
}

/** Whether an answer's `X-Geo-Local-Extensions` header lists the vector tiles. */
export function advertisesTiles(headers: { get(name: string): string | null }): boolean {
  const value = headers.get('x-geo-local-extensions')
  return value !== null && value.split(',').some((v) => v.trim() === TILES_EXTENSION)
}
