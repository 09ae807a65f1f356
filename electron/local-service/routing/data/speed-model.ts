import { HIGHWAY_CLASSES, type HighwayClass } from './profiles'

/**
 * The time-dependent speed model: for each highway class and each hour of the week (Monday 00:00 local
 * time = hour 0, Sunday 23:00 = hour 167), the factor by which free-flow speed is multiplied (1 = free flow,
 * 0.5 = half speed: travel takes twice as long).
 *
 * The default is a MODEL, not a measurement: a weekday double peak typical of Indian cities (morning
 * 08:00-11:00, evening 17:00-20:00, deepest at 09:00 and 18:00), a milder Saturday, a light Sunday; city
 * arterials slow down most, highways least, walking and cycling ways never. Analysts with measured speed
 * profiles import them as CSV (`parseSpeedModelCsv`).
 */
export interface SpeedModel {
  name: string
  /** Whether the factors come from the built-in model (true) or from an imported profile. */
  model: boolean
  /** factors[classId][hourOfWeek], classId in HIGHWAY_CLASSES order. */
  factors: number[][]
}

export const HOURS_PER_WEEK = 168

/** Class groups the default model (and CSV rows) may name instead of single classes. */
export const CLASS_GROUPS: Readonly<Record<string, readonly HighwayClass[]>> = {
  highway: ['motorway', 'motorway_link', 'trunk', 'trunk_link'],
  arterial: ['primary', 'primary_link', 'secondary', 'secondary_link'],
  local: [
    'tertiary',
    'tertiary_link',
    'unclassified',
    'residential',
    'living_street',
    'service',
    'road',
    'track',
  ],
  'non-motorized': ['pedestrian', 'footway', 'path', 'cycleway', 'bridleway', 'steps', 'corridor'],
}

/** Weekday factor of city arterials by hour of the day (the default model's shape). */
export const WEEKDAY_ARTERIAL = [
  1, 1, 1, 1, 1, 0.97, 0.9, 0.8, 0.65, 0.55, 0.6, 0.7, 0.75, 0.75, 0.75, 0.72, 0.65, 0.55, 0.5, 0.55, 0.65,
  0.8, 0.9, 0.95,
] as const

/** How much of the arterial slow-down each group gets, and how much of the weekday one each day gets. */
const GROUP_DEPTH: Readonly<Record<string, number>> = {
  highway: 0.6,
  arterial: 1,
  local: 0.7,
  'non-motorized': 0,
}
/** Monday..Sunday. */
const DAY_DEPTH = [1, 1, 1, 1, 1, 0.6, 0.35] as const

const round3 = (x: number) => Math.round(x * 1000) / 1000

function defaultFactors(depth: number): number[] {
  const out: number[] = []
  for (let day = 0; day < 7; day++)
    for (let h = 0; h < 24; h++) out.push(round3(1 - depth * DAY_DEPTH[day]! * (1 - WEEKDAY_ARTERIAL[h]!)))
  return out
}

function groupOf(cls: HighwayClass): string {
  for (const [g, members] of Object.entries(CLASS_GROUPS)) if (members.includes(cls)) return g
  return 'local'
}

export function defaultSpeedModel(): SpeedModel {
  return {
    name: 'Default speed model (Indian city peaks; a model, not measured traffic)',
    model: true,
    factors: HIGHWAY_CLASSES.map((c) => defaultFactors(GROUP_DEPTH[groupOf(c)] ?? 0.7)),
  }
}

/** Hours of the week that "typical traffic" (distance_matrix_traffic) averages: weekdays 08:00-19:59. */
export const TYPICAL_HOURS: readonly number[] = Array.from({ length: 5 * 24 }, (_, i) => i).filter(
  (h) => h % 24 >= 8 && h % 24 < 20,
)

/** Per-class factor of typical traffic: the mean over TYPICAL_HOURS. */
export function typicalFactors(model: SpeedModel): number[] {
  return model.factors.map((f) => round3(TYPICAL_HOURS.reduce((s, h) => s + f[h]!, 0) / TYPICAL_HOURS.length))
}

export function hourFactors(model: SpeedModel, hourOfWeek: number): number[] {
  return model.factors.map((f) => f[hourOfWeek]!)
}

/** Seconds to add to UTC to get local wall time in `timeZone` at `unixSeconds`. */
export function utcOffsetSeconds(timeZone: string, unixSeconds: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(unixSeconds * 1000))
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0)
  const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'))
  return Math.round(local / 1000 - Math.floor(unixSeconds))
}

/** Hour of the week (Monday 00:00 = 0) of a local time given as seconds since the epoch in local wall time. */
export function hourOfWeekLocal(localSeconds: number): number {
  const days = Math.floor(localSeconds / 86400)
  // 1970-01-01 was a Thursday: Monday-based weekday 3.
  const weekday = (((days + 3) % 7) + 7) % 7
  const hour = Math.floor((localSeconds - days * 86400) / 3600)
  return weekday * 24 + hour
}

export function hourOfWeek(unixSeconds: number, timeZone: string): number {
  return hourOfWeekLocal(unixSeconds + utcOffsetSeconds(timeZone, unixSeconds))
}

export class SpeedModelError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SpeedModelError'
  }
}

const MIN_FACTOR = 0.05
const MAX_FACTOR = 1.5

function classesOf(name: string, line: number): HighwayClass[] {
  const n = name.trim().toLowerCase()
  if (n === '*' || n === 'all') return [...HIGHWAY_CLASSES]
  if (CLASS_GROUPS[n]) return [...CLASS_GROUPS[n]!]
  if ((HIGHWAY_CLASSES as readonly string[]).includes(n)) return [n as HighwayClass]
  throw new SpeedModelError(
    `line ${line}: "${name.slice(0, 40)}" is not a highway class (${HIGHWAY_CLASSES.join(', ')}), a group (${Object.keys(CLASS_GROUPS).join(', ')}) or *`,
  )
}

function factorOf(text: string | undefined, line: number): number {
  const f = Number(text?.trim())
  if (!Number.isFinite(f) || f < MIN_FACTOR || f > MAX_FACTOR)
    throw new SpeedModelError(
      `line ${line}: factor "${(text ?? '').slice(0, 20)}" must be a number from ${MIN_FACTOR} to ${MAX_FACTOR}`,
    )
  return f
}

/**
 * Read speed profiles from CSV, over the default model (classes the file does not name keep it). Two
 * layouts, with a header row:
 * - long: `class,hour,factor` — hour of the week 0-167 (Monday 00:00 = 0), one row per class and hour;
 * - wide: `class,h0,h1,…,h167` — one row per class with its 168 factors.
 * `class` is a highway class, a group (highway, arterial, local, non-motorized) or `*`.
 */
export function parseSpeedModelCsv(text: string, name = 'Imported speed profiles'): SpeedModel {
  const rows = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((l, i) => ({ cells: l.split(/[,;\t]/).map((c) => c.trim()), line: i + 1 }))
    .filter((r) => r.cells.some((c) => c !== '') && !r.cells[0]!.startsWith('#'))
  const head = rows.shift()
  if (!head) throw new SpeedModelError('the file is empty')
  const cols = head.cells.map((c) => c.toLowerCase())
  const base = defaultSpeedModel()
  const factors = base.factors.map((f) => [...f])
  const classIndex = (c: HighwayClass) => HIGHWAY_CLASSES.indexOf(c)
  if (cols[0] !== 'class') throw new SpeedModelError('line 1: the first column must be "class"')
  if (cols.length === 3 && cols[1] === 'hour' && cols[2] === 'factor') {
    for (const r of rows) {
      const hour = Number(r.cells[1])
      if (!Number.isInteger(hour) || hour < 0 || hour >= HOURS_PER_WEEK)
        throw new SpeedModelError(
          `line ${r.line}: hour "${(r.cells[1] ?? '').slice(0, 20)}" must be an hour of the week 0-167`,
        )
      const f = factorOf(r.cells[2], r.line)
      for (const c of classesOf(r.cells[0]!, r.line)) factors[classIndex(c)]![hour] = f
    }
  } else if (cols.length === HOURS_PER_WEEK + 1) {
    for (const r of rows) {
      if (r.cells.length !== HOURS_PER_WEEK + 1)
        throw new SpeedModelError(
          `line ${r.line}: has ${r.cells.length} columns; the header has ${HOURS_PER_WEEK + 1}`,
        )
      const values = r.cells.slice(1).map((c) => factorOf(c, r.line))
      for (const c of classesOf(r.cells[0]!, r.line)) factors[classIndex(c)] = [...values]
    }
  } else {
    throw new SpeedModelError(
      `line 1: expected the columns class,hour,factor or class followed by ${HOURS_PER_WEEK} hourly factors`,
    )
  }
  if (rows.length === 0) throw new SpeedModelError('the file has a header but no rows')
  return { name, model: false, factors }
}
