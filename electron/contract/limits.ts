/**
 * Size limits the hosts enforce, one per kind of request, shared with the renderer so the screen states
 * the same numbers. A request over a limit is answered 413 with a `validation` error naming it.
 */

/** Largest JSON body of one operation sent over the browser host (`POST /api/op/NAME`). */
export const OPERATION_BODY_MAX_BYTES = 32 * 1024 * 1024

/**
 * Largest file the app imports into the local workspace, in the desktop app (a file the user chose or
 * dropped) and in the browser host (`POST /api/upload`) alike. `geo-analyst import` takes bigger files.
 */
export const IMPORT_MAX_BYTES = 256 * 1024 * 1024

/** File types the local workspace imports (optionally gzipped: `.geojson.gz`). */
export const IMPORT_EXTENSIONS = [
  '.geojson',
  '.json',
  '.ndjson',
  '.csv',
  '.kml',
  '.zip',
  '.fgb',
  '.gpkg',
] as const

/** File types the routing area imports as road networks (OpenStreetMap extracts, Overpass GeoJSON). */
export const NETWORK_IMPORT_EXTENSIONS = [
  '.osm.pbf',
  '.pbf',
  '.osm',
  '.geojson',
  '.json',
  '.geojsonl',
  '.ndjson',
] as const

/** Every file type a host accepts for import by reference (datasets and road networks). */
export const ANY_IMPORT_EXTENSIONS = [...new Set([...IMPORT_EXTENSIONS, ...NETWORK_IMPORT_EXTENSIONS])]

/**
 * Why a file cannot be offered for import, judged by its name and size before anything is read; null
 * when it can be tried. The renderer says it before sending; the hosts check it again on receipt (with
 * every importable type, since a host does not know what the file is for).
 */
export function importFileProblem(
  name: string,
  size: number,
  extensions: readonly string[] = IMPORT_EXTENSIONS,
): string | null {
  const lower = name.toLowerCase().replace(/\.gz$/, '')
  if (!extensions.some((ext) => lower.endsWith(ext))) {
    return `${name}: only ${extensions.join(', ')} files (optionally .gz) can be imported`
  }
  if (size > IMPORT_MAX_BYTES) {
    return `${name}: ${formatBytes(size)} is over the ${formatBytes(IMPORT_MAX_BYTES)} import limit; use geo-analyst import for bigger files`
  }
  if (size === 0) return `${name}: the file is empty`
  return null
}

/** A byte count as the screens and messages say it: `256 MiB`, `1.5 KiB`. */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  const text = unit === 0 || Number.isInteger(value) ? String(value) : value.toFixed(1)
  return `${text} ${units[unit]}`
}
