import type { DeviceType } from '../../../contract/telematics/fleet'
import { HIGHWAY_CLASSES } from '../../routing/data/profiles'
import type { DayProfile } from './day-profile'

/**
 * What a simulated vehicle is doing: parked, engine on before moving off, driving, engine on after arriving,
 * working on site (engine on, standing), towed away.
 */
export type Phase = 'parked' | 'starting' | 'driving' | 'arrived' | 'working' | 'towed'

/** How a kind of vehicle drives, parks and burns fuel: the simulation's model, not measurements. */
export interface VehicleKind {
  /** Highest speed it reaches (km/h), whatever the road allows. */
  maxKmh: number
  /** Comfortable acceleration (m/s²) before the driver's temperament. */
  accel: number
  /** Engine speed at idle and the engine speed per km/h in drive. */
  idleRpm: number
  rpmPerKmh: number
  maxRpm: number
  tankLitres: number
  /** Litres per 100 km driving, litres per hour at idle. */
  litresPer100: number
  idleLitresPerHour: number
  /** Seconds parked between trips at the busiest hour of its day (uniform between the two). */
  dwell: readonly [number, number]
  /** How busy it is through the local day: the dwell lasts longer where the day is quiet. */
  day: DayProfile
  /** Share of trips that are dispatched jobs (status 8 while driving). */
  tripShare: number
  /** Works on site after arriving (ignition on, not moving) for this many seconds, or null. */
  work: readonly [number, number] | null
  /** Share of the fleet of this kind. */
  share: number
}

export const VEHICLE_KINDS: Readonly<Record<DeviceType, VehicleKind>> = {
  car: {
    maxKmh: 120,
    accel: 2.2,
    idleRpm: 750,
    rpmPerKmh: 28,
    maxRpm: 4500,
    tankLitres: 50,
    litresPer100: 7,
    idleLitresPerHour: 0.8,
    dwell: [180, 1800],
    day: 'commute',
    tripShare: 0.3,
    work: null,
    share: 0.38,
  },
  truck: {
    maxKmh: 85,
    accel: 1.0,
    idleRpm: 600,
    rpmPerKmh: 22,
    maxRpm: 2200,
    tankLitres: 300,
    litresPer100: 30,
    idleLitresPerHour: 2.5,
    dwell: [300, 2400],
    day: 'freight',
    tripShare: 1,
    work: null,
    share: 0.2,
  },
  bus: {
    maxKmh: 75,
    accel: 1.1,
    idleRpm: 600,
    rpmPerKmh: 24,
    maxRpm: 2300,
    tankLitres: 250,
    litresPer100: 35,
    idleLitresPerHour: 2.5,
    dwell: [60, 600],
    day: 'transit',
    tripShare: 1,
    work: null,
    share: 0.1,
  },
  bike: {
    maxKmh: 90,
    accel: 2.8,
    idleRpm: 1300,
    rpmPerKmh: 60,
    maxRpm: 9000,
    tankLitres: 12,
    litresPer100: 3,
    idleLitresPerHour: 0.3,
    dwell: [180, 1800],
    day: 'commute',
    tripShare: 0.2,
    work: null,
    share: 0.16,
  },
  tracktor: {
    maxKmh: 30,
    accel: 0.8,
    idleRpm: 800,
    rpmPerKmh: 60,
    maxRpm: 2300,
    tankLitres: 150,
    litresPer100: 25,
    idleLitresPerHour: 2,
    dwell: [600, 3600],
    day: 'site',
    tripShare: 0,
    work: [900, 3600],
    share: 0.06,
  },
  'backhoe-loader': {
    maxKmh: 35,
    accel: 0.8,
    idleRpm: 800,
    rpmPerKmh: 55,
    maxRpm: 2200,
    tankLitres: 120,
    litresPer100: 25,
    idleLitresPerHour: 3,
    dwell: [300, 1200],
    day: 'site',
    tripShare: 0,
    work: [1200, 5400],
    share: 0.05,
  },
  excavator: {
    maxKmh: 20,
    accel: 0.5,
    idleRpm: 800,
    rpmPerKmh: 80,
    maxRpm: 2000,
    tankLitres: 400,
    litresPer100: 40,
    idleLitresPerHour: 4,
    dwell: [300, 1200],
    day: 'site',
    tripShare: 0,
    work: [1800, 7200],
    share: 0.05,
  },
}

/** The trackers fitted: a CAN-bus (OBD) tracker reads the vehicle's bus; a GPS tracker and a phone beacon do not. */
export const TRACKERS = {
  obd: { deviceType: 'OBD', deviceTypeName: 'OBD-II CAN tracker', odometerType: 2 as const, share: 0.62 },
  gps: { deviceType: 'GPS', deviceTypeName: 'Hardwired GPS tracker', odometerType: 1 as const, share: 0.3 },
  beacon: {
    deviceType: 'BEACON',
    deviceTypeName: 'Mobile beacon (phone app)',
    odometerType: 0 as const,
    share: 0.08,
  },
} as const
export type TrackerKind = keyof typeof TRACKERS

/** Comfortable braking (m/s²) of every kind. */
export const BRAKE_MS2 = 2.2

/** The fastest a vehicle takes a turn of `turn` degrees (km/h). */
export function cornerKmh(turn: number): number {
  return Math.max(10, 75 * Math.pow(1 - turn / 180, 1.6))
}

const MOTORWAY = HIGHWAY_CLASSES.indexOf('motorway')
const TRUNK = HIGHWAY_CLASSES.indexOf('trunk')
/** Whether a road of this class (index into HIGHWAY_CLASSES) has stops in traffic (lights, queues). */
export function stopsInTraffic(cls: number): boolean {
  return cls !== MOTORWAY && cls !== TRUNK
}

/** Seconds of the short phases around a drive: engine on before moving off, engine on after arriving. */
export const WARM_UP_SECONDS = [5, 45] as const
export const ARRIVAL_SECONDS = [5, 60] as const

/** How long the rare events last (uniform between the two, seconds). */
export const EVENT_SPANS = {
  gprsLoss: [30, 900],
  gpsLoss: [10, 300],
  powerCut: [600, 2 * 3600],
  trafficStop: [8, 75],
} as const

/** Mean seconds between the rare events of one vehicle (exponential waiting times). */
export const EVENT_MEANS = {
  gprsLoss: 2 * 3600,
  gpsLoss: 90 * 60,
  powerCut: 14 * 3600,
  towing: 30 * 3600,
  panic: 30 * 3600,
  fault: 6 * 3600,
  /** While driving: a stop in traffic, and a sudden hard stop. */
  trafficStop: 150,
  hardBrake: 25 * 60,
} as const

/** Fault codes an OBD tracker reports (the numbers of common OBD-II codes, P0171 → 171). */
export const FAULT_CODES = [171, 300, 301, 420, 128, 562, 101, 442, 455, 700] as const
