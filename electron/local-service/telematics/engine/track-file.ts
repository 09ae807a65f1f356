/**
 * Recorded tracks: GPX (`trkpt` or `rtept` with `time`, optional `speed` in m/s), CSV (a header naming time,
 * lat and lon columns, optional speed in km/h) and GeoJSON (a LineString or MultiLineString with a time per
 * position: `properties.coordTimes`, `properties.times`, `properties.coordinateProperties.times`, or a
 * fourth coordinate). Times are ISO 8601 or unix seconds (milliseconds when above 10^11).
 */

export interface TrackPoint {
  /** Unix seconds. */
  t: number
  lon: number
  lat: number
  /** km/h when the file says. */
  speed: number | null
}

export class TrackFileError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'TrackFileError'
  }
}

export const MAX_TRACK_POINTS = 200_000

export type TrackFormat = 'gpx' | 'csv' | 'geojson'

export function trackFormat(fileName: string, content: string): TrackFormat | undefined {
  const lower = fileName.toLowerCase()
  if (lower.endsWith('.gpx')) return 'gpx'
  if (lower.endsWith('.csv') || lower.endsWith('.txt')) return 'csv'
  if (lower.endsWith('.geojson') || lower.endsWith('.json')) return 'geojson'
  const head = content.trimStart().slice(0, 200)
  if (head.startsWith('<')) return 'gpx'
  if (head.startsWith('{')) return 'geojson'
  return undefined
}

/** A time as unix seconds, from ISO text or a number; undefined when it is neither. */
export function readTime(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value > 1e11 ? value / 1000 : value
  if (typeof value !== 'string') return undefined
  const text = value.trim()
  if (/^\d+(\.\d+)?$/.test(text)) return readTime(Number(text))
  if (!/^\d{4}-\d{2}-\d{2}/.test(text)) return undefined
  const ms = Date.parse(text)
  return Number.isFinite(ms) ? ms / 1000 : undefined
}

function checkPosition(lon: number, lat: number, where: string): void {
  if (!Number.isFinite(lon) || !Number.isFinite(lat) || Math.abs(lon) > 180 || Math.abs(lat) > 90)
    throw new TrackFileError(`${where}: the position ${lat}, ${lon} is not a latitude and longitude`)
}

function attr(tag: string, name: string): string | undefined {
  return new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, 'i').exec(tag)?.[1]
}

function readGpx(text: string): TrackPoint[] {
  const points: TrackPoint[] = []
  const re = /<(trkpt|rtept)\b([^>]*?)(\/>|>([\s\S]*?)<\/\1\s*>)/gi
  let m: RegExpExecArray | null
  let n = 0
  while ((m = re.exec(text))) {
    n++
    const where = `point ${n}`
    const lat = Number(attr(m[2]!, 'lat'))
    const lon = Number(attr(m[2]!, 'lon'))
    checkPosition(lon, lat, where)
    const body = m[4] ?? ''
    const timeText = /<time>([^<]*)<\/time>/i.exec(body)?.[1]
    const t = timeText === undefined ? undefined : readTime(timeText)
    if (t === undefined)
      throw new TrackFileError(`${where}: no <time> (a replay needs the time of every point)`)
    const speedText = /<(?:\w+:)?speed>([^<]*)<\/(?:\w+:)?speed>/i.exec(body)?.[1]
    const speed =
      speedText !== undefined && Number.isFinite(Number(speedText)) ? Number(speedText) * 3.6 : null
    points.push({ t, lon, lat, speed })
    if (points.length > MAX_TRACK_POINTS) break
  }
  if (n === 0)
    throw new TrackFileError('the GPX file has no track points (<trkpt>) or route points (<rtept>)')
  return points
}

function splitCsvLine(line: string): string[] {
  const out: string[] = []
  let cell = ''
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"'
        i++
      } else if (ch === '"') quoted = false
      else cell += ch
    } else if (ch === '"') quoted = true
    else if (ch === ',' || ch === ';' || ch === '\t') {
      out.push(cell)
      cell = ''
    } else cell += ch
  }
  out.push(cell)
  return out.map((c) => c.trim())
}

function readCsv(text: string): TrackPoint[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '')
  if (lines.length < 2) throw new TrackFileError('the CSV file needs a header row and at least two points')
  const header = splitCsvLine(lines[0]!).map((h) => h.toLowerCase())
  const column = (names: string[]) => header.findIndex((h) => names.includes(h))
  const ti = column(['time', 'timestamp', 'datetime', 'date_time', 'gpstime', 'utc'])
  const lat = column(['lat', 'latitude', 'y'])
  const lon = column(['lon', 'lng', 'long', 'longitude', 'x'])
  const sp = column(['speed', 'speed_kmh', 'speedkph', 'speed_kph', 'kmh'])
  const missing = [ti < 0 ? 'time' : '', lat < 0 ? 'lat' : '', lon < 0 ? 'lon' : ''].filter(Boolean)
  if (missing.length)
    throw new TrackFileError(
      `the CSV header has no ${missing.join(', ')} column (expected time, lat, lon and optionally speed; found ${header.join(', ')})`,
    )
  const points: TrackPoint[] = []
  for (let i = 1; i < lines.length && points.length <= MAX_TRACK_POINTS; i++) {
    const cells = splitCsvLine(lines[i]!)
    const where = `line ${i + 1}`
    const t = readTime(cells[ti])
    if (t === undefined) throw new TrackFileError(`${where}: "${cells[ti] ?? ''}" is not a time`)
    const y = Number(cells[lat])
    const x = Number(cells[lon])
    checkPosition(x, y, where)
    const s = sp >= 0 && cells[sp] !== '' && cells[sp] !== undefined ? Number(cells[sp]) : null
    if (s !== null && (!Number.isFinite(s) || s < 0))
      throw new TrackFileError(`${where}: speed "${cells[sp]}" is not a number of km/h`)
    points.push({ t, lon: x, lat: y, speed: s })
  }
  return points
}

type Json = Record<string, unknown>

function readGeoJson(text: string): TrackPoint[] {
  let root: unknown
  try {
    root = JSON.parse(text)
  } catch (error) {
    throw new TrackFileError(`the GeoJSON is not valid JSON: ${(error as Error).message}`)
  }
  const features: Json[] =
    (root as Json)?.type === 'FeatureCollection'
      ? (((root as Json).features as Json[]) ?? [])
      : (root as Json)?.type === 'Feature'
        ? [root as Json]
        : [{ type: 'Feature', geometry: root, properties: {} }]
  for (const [fi, feature] of features.entries()) {
    const geometry = feature?.geometry as Json | undefined
    if (geometry?.type !== 'LineString' && geometry?.type !== 'MultiLineString') continue
    const lines = (
      geometry.type === 'LineString' ? [geometry.coordinates] : geometry.coordinates
    ) as unknown[][]
    const positions = lines.flat() as unknown[]
    const props = (feature.properties ?? {}) as Json
    const nested = (props.coordinateProperties as Json | undefined)?.times
    const times = (props.coordTimes ?? props.times ?? nested) as unknown
    const flatTimes = Array.isArray(times) ? (times as unknown[]).flat() : undefined
    const points: TrackPoint[] = []
    for (const [i, p] of positions.entries()) {
      const where = `feature ${fi}, position ${i}`
      if (!Array.isArray(p)) throw new TrackFileError(`${where}: not a position`)
      const [x, y] = p as number[]
      checkPosition(Number(x), Number(y), where)
      const t = readTime(flatTimes ? flatTimes[i] : (p[3] ?? p[2]))
      if (t === undefined)
        throw new TrackFileError(
          `${where}: no time (give properties.coordTimes, one per position, or a time as the fourth coordinate)`,
        )
      points.push({ t, lon: Number(x), lat: Number(y), speed: null })
      if (points.length > MAX_TRACK_POINTS) break
    }
    return points
  }
  throw new TrackFileError('the GeoJSON has no LineString or MultiLineString to replay')
}

/** Read a track file; a file that cannot be replayed is a TrackFileError naming the point and the problem. */
export function readTrack(fileName: string, content: string): TrackPoint[] {
  const format = trackFormat(fileName, content)
  if (!format) throw new TrackFileError(`${fileName}: use a .gpx, .csv or .geojson track`)
  const points =
    format === 'gpx' ? readGpx(content) : format === 'csv' ? readCsv(content) : readGeoJson(content)
  if (points.length > MAX_TRACK_POINTS)
    throw new TrackFileError(`the track has more than ${MAX_TRACK_POINTS.toLocaleString('en-US')} points`)
  if (points.length < 2) throw new TrackFileError('a track needs at least two points with times')
  for (let i = 1; i < points.length; i++) {
    if (points[i]!.t < points[i - 1]!.t)
      throw new TrackFileError(
        `point ${i + 1}: its time is earlier than the point before (the track must be in time order)`,
      )
  }
  if (points[points.length - 1]!.t === points[0]!.t)
    throw new TrackFileError('every point of the track has the same time; a replay needs time to pass')
  return points
}
