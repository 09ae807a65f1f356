import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { promisify } from 'node:util'

/**
 * GDAL's command-line tools for interoperability tests: what another GIS (QGIS, ArcGIS through GDAL,
 * ogr2ogr in a pipeline) writes and reads. Debian: `apt-get install gdal-bin python3-gdal`.
 */
const run = promisify(execFile)

export const GPKG_VALIDATOR = '/usr/lib/python3/dist-packages/osgeo_utils/samples/validate_gpkg.py'

/** Why GDAL tests cannot run here, or undefined when `ogr2ogr`, `ogrinfo` and the validator are found. */
export function gdalMissing(): string | undefined {
  const found = (tool: string) =>
    (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(`${dir}/${tool}`))
  const missing = ['ogr2ogr', 'ogrinfo'].filter((tool) => !found(tool))
  if (!existsSync(GPKG_VALIDATOR)) missing.push(GPKG_VALIDATOR)
  return missing.length > 0
    ? `GDAL is not installed (missing ${missing.join(', ')}): apt-get install gdal-bin python3-gdal`
    : undefined
}

async function tool(command: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await run(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    return stdout
  } catch (error) {
    const e = error as { stderr?: string; stdout?: string; message: string }
    throw new Error(`${command} ${args.join(' ')} failed: ${(e.stderr || e.stdout || e.message).trim()}`)
  }
}

/** Run `ogr2ogr` with these arguments (destination first, then source, as ogr2ogr takes them). */
export function ogr2ogr(args: string[]): Promise<string> {
  return tool('ogr2ogr', args)
}

export interface GdalRead {
  /** The layer's declared geometry type as `ogrinfo` names it (`Point`, `Multi Polygon`, `Unknown (any)`). */
  layerGeometry: string
  /** The layer's CRS as an EPSG code when GDAL identifies one. */
  epsg?: number
  features: Array<{ properties: Record<string, unknown>; geometry: GeoJSON.Geometry | null }>
}

/**
 * A file's first layer as GDAL reads it: its declared geometry type and CRS (`ogrinfo -so`) and its features
 * (`ogr2ogr -f GeoJSON /vsistdout/`), reprojected to WGS84 longitude/latitude when `toWgs84`.
 */
export async function gdalRead(
  file: string,
  options: { toWgs84?: boolean; open?: string[] } = {},
): Promise<GdalRead> {
  const open = (options.open ?? []).flatMap((o) => ['-oo', o])
  const [info, text] = await Promise.all([
    tool('ogrinfo', ['-ro', '-so', '-al', ...open, file]),
    tool('ogr2ogr', [
      '-f',
      'GeoJSON',
      ...(options.toWgs84 ? ['-t_srs', 'EPSG:4326'] : []),
      '-lco',
      'COORDINATE_PRECISION=15',
      ...open,
      '/vsistdout/',
      file,
    ]),
  ])
  const layerGeometry = /^Geometry: (.+)$/m.exec(info)?.[1]?.trim() ?? 'None'
  const ids = [...info.matchAll(/ID\["EPSG",(\d+)\]\]\s*$/gm)]
  const epsg = ids.length > 0 ? Number(ids[ids.length - 1]![1]) : undefined
  const collection = JSON.parse(text) as GdalRead
  return { layerGeometry, epsg, features: collection.features }
}

/** GDAL's GeoPackage validator on a file: its complaints (empty when valid) and its exit status. */
export async function validateGeoPackage(file: string): Promise<{ ok: boolean; output: string }> {
  try {
    const { stdout, stderr } = await run('python3', [GPKG_VALIDATOR, file], { encoding: 'utf8' })
    return { ok: stdout.trim() === '' && stderr.trim() === '', output: (stdout + stderr).trim() }
  } catch (error) {
    const e = error as { stderr?: string; stdout?: string; message: string }
    return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}`.trim() || e.message }
  }
}
