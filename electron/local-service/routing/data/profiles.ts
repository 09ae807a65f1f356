/**
 * Routing profiles as data: which OSM ways a mode may use, in which direction, and how fast.
 *
 * Everything a profile decides is in the tables below (highway classes, default speeds, access tag
 * hierarchy, access values); `wayAttributes` only reads them. The default speeds are free-flow averages
 * typical of Indian roads (not legal limits): a mapped `maxspeed` lowers them, never raises them.
 *
 * Turn restrictions (`type=restriction` relations) are not applied: the graph is node-based, so a turn
 * that OSM forbids may appear in a route. The time cost of turns is not modelled either.
 */

export const PROFILES = ['driving', 'biking', 'walking', 'trucking'] as const
export type Profile = (typeof PROFILES)[number]

/** The highway classes the graph knows, in this order (the class id is the index). */
export const HIGHWAY_CLASSES = [
  'motorway',
  'motorway_link',
  'trunk',
  'trunk_link',
  'primary',
  'primary_link',
  'secondary',
  'secondary_link',
  'tertiary',
  'tertiary_link',
  'unclassified',
  'residential',
  'living_street',
  'service',
  'road',
  'track',
  'pedestrian',
  'footway',
  'path',
  'cycleway',
  'bridleway',
  'steps',
  'corridor',
] as const
export type HighwayClass = (typeof HIGHWAY_CLASSES)[number]

const CLASS_ID = new Map<string, number>(HIGHWAY_CLASSES.map((c, i) => [c, i]))

export function highwayClassId(value: string | undefined): number {
  return value === undefined ? -1 : (CLASS_ID.get(value) ?? -1)
}

/**
 * Default free-flow speed in km/h per highway class and profile; a class absent from a profile's column
 * is not usable by that profile unless a tag explicitly allows it (then it gets `fallback`).
 * Figures: typical average speeds on Indian roads (National Highways 50-60 km/h for cars, expressways 80,
 * city arterials 30-45, lanes 15-20); two-wheelers slightly slower on highways, trucks capped at 60.
 */
export const DEFAULT_SPEEDS: Readonly<Record<Profile, Partial<Record<HighwayClass, number>>>> = {
  driving: {
    motorway: 80,
    motorway_link: 45,
    trunk: 60,
    trunk_link: 40,
    primary: 45,
    primary_link: 30,
    secondary: 35,
    secondary_link: 25,
    tertiary: 30,
    tertiary_link: 25,
    unclassified: 25,
    residential: 20,
    living_street: 10,
    service: 15,
    road: 20,
    track: 10,
  },
  biking: {
    trunk: 50,
    trunk_link: 35,
    primary: 40,
    primary_link: 30,
    secondary: 35,
    secondary_link: 25,
    tertiary: 30,
    tertiary_link: 25,
    unclassified: 25,
    residential: 20,
    living_street: 10,
    service: 15,
    road: 20,
    track: 12,
  },
  trucking: {
    motorway: 60,
    motorway_link: 35,
    trunk: 50,
    trunk_link: 30,
    primary: 35,
    primary_link: 25,
    secondary: 30,
    secondary_link: 20,
    tertiary: 25,
    tertiary_link: 20,
    unclassified: 20,
    residential: 15,
    service: 10,
    road: 15,
  },
  walking: {
    trunk: 5,
    trunk_link: 5,
    primary: 5,
    primary_link: 5,
    secondary: 5,
    secondary_link: 5,
    tertiary: 5,
    tertiary_link: 5,
    unclassified: 5,
    residential: 5,
    living_street: 5,
    service: 5,
    road: 5,
    track: 5,
    pedestrian: 5,
    footway: 5,
    path: 5,
    cycleway: 5,
    bridleway: 5,
    steps: 3,
    corridor: 5,
  },
}

/** Speed (km/h) for a class a profile does not list but a tag explicitly opens to it. */
const FALLBACK_SPEED: Readonly<Record<Profile, number>> = {
  driving: 10,
  biking: 10,
  trucking: 10,
  walking: 5,
}

/** Highest speed a profile ever gets, whatever `maxspeed` says. */
export const SPEED_CAP: Readonly<Record<Profile, number>> = {
  driving: 120,
  biking: 80,
  trucking: 60,
  walking: 5,
}

/** Service roads of these kinds are slow (parking aisles, driveways). */
const SLOW_SERVICE = new Set(['parking_aisle', 'driveway', 'drive-through'])
const SLOW_SERVICE_SPEED = 10

/** OSM access tags from general to specific; the most specific one present decides. */
export const ACCESS_HIERARCHY: Readonly<Record<Profile, readonly string[]>> = {
  driving: ['access', 'vehicle', 'motor_vehicle', 'motorcar'],
  biking: ['access', 'vehicle', 'motor_vehicle', 'motorcycle'],
  trucking: ['access', 'vehicle', 'motor_vehicle', 'hgv'],
  walking: ['access', 'foot'],
}

/** Access outcome of a way for a profile in one direction. */
export const Access = {
  No: 0,
  Yes: 1,
  /** Usable with a penalty for least time (rtype 0), not at all for least distance (rtype 1). */
  Penalized: 2,
} as const
export type Access = (typeof Access)[keyof typeof Access]

/** Access values that close a way to the mode. */
export const ACCESS_NO = new Set([
  'no',
  'agricultural',
  'forestry',
  'emergency',
  'psv',
  'bus',
  'military',
  'use_sidepath',
  'dismount',
])
/** Access values that allow the way only to reach a place on it: penalized for least time, avoided for least distance. */
export const ACCESS_PENALIZED = new Set([
  'private',
  'destination',
  'delivery',
  'customers',
  'permit',
  'discouraged',
])

/** Weight multiplier of a penalized way for least time (rtype 0): its time counts three times. */
export const ACCESS_PENALTY_FACTOR = 3

export type Tags = Readonly<Record<string, string | undefined>>

/** Parse an OSM `maxspeed` in km/h ("50", "50 mph", "30 knots"); undefined for none, signals and zone codes. */
export function parseMaxspeed(value: string | undefined): number | undefined {
  if (!value) return undefined
  const m = /^\s*(\d+(?:\.\d+)?)\s*(km\/h|kmh|kph|mph|knots)?\s*$/i.exec(value.split(';')[0] ?? '')
  if (!m) return undefined
  const n = Number(m[1])
  const unit = (m[2] ?? '').toLowerCase()
  const kmh = unit === 'mph' ? n * 1.609344 : unit === 'knots' ? n * 1.852 : n
  return kmh > 0 ? kmh : undefined
}

/** Direction of travel a way allows to vehicles: 1 forward only, -1 backward only, 0 both. */
export function onewayDirection(tags: Tags): -1 | 0 | 1 {
  const v = tags.oneway
  if (v === 'yes' || v === 'true' || v === '1') return 1
  if (v === '-1' || v === 'reverse') return -1
  if (v === 'no' || v === 'false' || v === '0') return 0
  if (tags.junction === 'roundabout' || tags.junction === 'circular') return 1
  if (tags.highway === 'motorway') return 1
  return 0
}

function accessValue(tags: Tags, profile: Profile): string | undefined {
  let found: string | undefined
  for (const key of ACCESS_HIERARCHY[profile]) {
    const v = tags[key]
    if (v !== undefined) found = v.split(';')[0]?.trim()
  }
  return found
}

/** How a profile sees one way: access per direction (forward = the way's node order) and speed. */
export interface ProfileView {
  forward: Access
  backward: Access
  /** Free-flow speed in km/h; 0 when the way is closed both ways. */
  speed: number
}

const CLOSED: ProfileView = { forward: Access.No, backward: Access.No, speed: 0 }

/** Ways that are never routable whatever their highway value (areas other than pedestrian squares, works). */
function excluded(tags: Tags): boolean {
  if (tags.area === 'yes' && tags.highway !== 'pedestrian' && tags.highway !== 'footway') return true
  return tags.highway === 'construction' || tags.highway === 'proposed' || tags.highway === 'platform'
}

export function profileView(tags: Tags, profile: Profile): ProfileView {
  const cls = tags.highway as HighwayClass | undefined
  if (!cls || highwayClassId(cls) < 0 || excluded(tags)) return CLOSED
  const listed = DEFAULT_SPEEDS[profile][cls]
  const value = accessValue(tags, profile)
  let access: Access
  if (value === undefined) access = listed === undefined ? Access.No : Access.Yes
  else if (ACCESS_NO.has(value)) access = Access.No
  else if (ACCESS_PENALIZED.has(value)) access = Access.Penalized
  else if (listed === undefined)
    access = value === 'yes' || value === 'designated' || value === 'permissive' ? Access.Yes : Access.No
  else access = Access.Yes
  if (access === Access.No) return CLOSED
  let speed = listed ?? FALLBACK_SPEED[profile]
  if (profile !== 'walking' && cls === 'service' && SLOW_SERVICE.has(tags.service ?? '')) {
    speed = Math.min(speed, SLOW_SERVICE_SPEED)
  }
  const max = profile === 'walking' ? undefined : parseMaxspeed(tags.maxspeed)
  if (max !== undefined) speed = Math.min(speed, max)
  speed = Math.max(1, Math.min(speed, SPEED_CAP[profile]))
  if (profile === 'walking') return { forward: access, backward: access, speed }
  const dir = onewayDirection(tags)
  return {
    forward: dir === -1 ? Access.No : access,
    backward: dir === 1 ? Access.No : access,
    speed,
  }
}

/** Everything the graph stores about a way: its class and each profile's view, in PROFILES order. */
export interface WayAttributes {
  cls: number
  views: ProfileView[]
}

/** The way's attributes, or undefined when no profile may use it. */
export function wayAttributes(tags: Tags): WayAttributes | undefined {
  const cls = highwayClassId(tags.highway)
  if (cls < 0) return undefined
  const views = PROFILES.map((p) => profileView(tags, p))
  if (views.every((v) => v.forward === Access.No && v.backward === Access.No)) return undefined
  return { cls, views }
}

export function profileIndex(profile: Profile): number {
  return PROFILES.indexOf(profile)
}
