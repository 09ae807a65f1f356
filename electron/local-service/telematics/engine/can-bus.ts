import type { CanInfo, DeviceType } from '../../../contract/telematics/fleet'
import type { Rng } from './random'
import type { Phase, VehicleKind } from './vehicle-types'

/** °C of the air around a vehicle (the engine cools down to it). */
export const AMBIENT_C = 12
const KMH = 3.6

/** What an OBD tracker reads of a vehicle: the vehicle's own state (see `Vehicle`). */
export interface CanSource {
  readonly kind: VehicleKind
  readonly aggression: number
  readonly details: { deviceType: DeviceType }
  readonly report: { greenDriveType: string }
  phase: Phase
  /** m/s, and the change of speed of this second (m/s²). */
  v: number
  accelNow: number
  ignition: boolean
  coolant: number
  fuel: number
  drivenMetres: number
  consumedLitres: number
  driverDoorUntil: number
  blinkerUntil: number
  localHour: number
}

/** The CAN bus as an OBD tracker reads it: consistent with the motion of this second. */
export function readCan(can: CanInfo, s: CanSource, t: number, rng: Rng): void {
  const k = s.kind
  const kmh = s.v * KMH
  const moving = kmh > 0.5
  const pedal = moving && s.accelNow > 0 ? Math.min(100, 15 + (s.accelNow / k.accel) * 60) : 0
  const working = s.phase === 'working'
  const rpm = !s.ignition
    ? 0
    : working
      ? k.idleRpm * 1.8 + rng.int(-60, 60)
      : moving
        ? Math.min(k.maxRpm, k.idleRpm + kmh * k.rpmPerKmh * (0.6 + pedal / 250))
        : k.idleRpm + rng.int(-20, 20)
  can.engineRPM = Math.round(rpm)
  can.gearState = !s.ignition || !moving ? 0 : s.aggression > 1.15 && kmh > 60 ? 2 : 1
  can.accelPedal = Math.round(pedal * 10) / 10
  can.breakPedal = s.accelNow < -0.3 || (s.ignition && !moving && s.phase !== 'working') ? 1 : 0
  can.parkBrake = s.phase === 'parked' || s.phase === 'working' ? 1 : 0
  can.calcEngineVal = s.ignition ? Math.round(working ? 65 : moving ? 20 + pedal * 0.7 : 18) : 0
  can.coolantTemp = Math.round(s.coolant * 10) / 10
  can.fuelLevel = Math.round(s.fuel)
  can.fuelConsAVG = s.drivenMetres > 1000 ? Math.round((s.consumedLitres / s.drivenMetres) * 100_000) : 0
  can.intakeAirTemp = Math.round((AMBIENT_C + (s.ignition ? 8 + s.coolant / 20 : 0)) * 10) / 10
  can.intakeabsolutePress = s.ignition ? Math.round(30_000 + pedal * 700) : 101_300
  can.driverDoor = t < s.driverDoorUntil ? 1 : 0
  can.blinker = t < s.blinkerUntil ? 1 : 0
  can.greenDriveType = s.report.greenDriveType
  can.canTimestamp = t
  // Headlights at night, air conditioning in the afternoon.
  const hour = s.localHour
  can.headLights = s.ignition && (hour < 7 || hour >= 19) ? 1 : 0
  can.ac = s.ignition && s.details.deviceType !== 'bike' && hour >= 11 && hour < 18 ? 1 : 0
}

/** The CAN values of a vehicle standing cold with the engine off. */
export function blankCan(): CanInfo {
  return {
    calcEngineVal: 0,
    greenDriveType: '',
    canTimestamp: 0,
    coolantTemp: AMBIENT_C,
    engineRPM: 0,
    accelPedal: 0,
    parkBrake: 1,
    breakPedal: 0,
    fuelLevel: 0,
    driverDoor: 0,
    headLights: 0,
    blinker: 0,
    gearState: 0,
    intakeAirTemp: AMBIENT_C,
    intakeabsolutePress: 101_300,
    ac: 0,
    fuelConsAVG: 0,
  }
}
