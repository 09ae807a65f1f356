import { describe, expect, it } from 'vitest'
import {
  Access,
  onewayDirection,
  parseMaxspeed,
  profileView,
  wayAttributes,
} from '../../../../../electron/local-service/routing/data/profiles'

describe('routing profiles', () => {
  it('reads oneway, including -1 and implied oneways, and walking ignores it', () => {
    expect(onewayDirection({ highway: 'primary', oneway: 'yes' })).toBe(1)
    expect(onewayDirection({ highway: 'primary', oneway: '-1' })).toBe(-1)
    expect(onewayDirection({ highway: 'primary', junction: 'roundabout' })).toBe(1)
    expect(onewayDirection({ highway: 'motorway' })).toBe(1)
    expect(onewayDirection({ highway: 'motorway', oneway: 'no' })).toBe(0)
    const back = profileView({ highway: 'residential', oneway: '-1' }, 'driving')
    expect([back.forward, back.backward]).toEqual([Access.No, Access.Yes])
    const walk = profileView({ highway: 'residential', oneway: '-1' }, 'walking')
    expect([walk.forward, walk.backward]).toEqual([Access.Yes, Access.Yes])
  })

  it('applies the access hierarchy per mode: access, vehicle, motor_vehicle, motorcycle, hgv, foot', () => {
    const noTrucks = { highway: 'secondary', hgv: 'no' }
    expect(profileView(noTrucks, 'trucking').speed).toBe(0)
    expect(profileView(noTrucks, 'driving').forward).toBe(Access.Yes)
    const noMotor = { highway: 'residential', motor_vehicle: 'no' }
    expect(profileView(noMotor, 'driving').forward).toBe(Access.No)
    expect(profileView(noMotor, 'biking').forward).toBe(Access.No)
    expect(profileView(noMotor, 'walking').forward).toBe(Access.Yes)
    // The most specific tag wins: motorcycles allowed on a road closed to motor vehicles.
    expect(profileView({ ...noMotor, motorcycle: 'yes' }, 'biking').forward).toBe(Access.Yes)
    expect(profileView({ highway: 'primary', foot: 'no' }, 'walking').forward).toBe(Access.No)
    // A footway is for walking only, unless tagged open.
    expect(profileView({ highway: 'footway' }, 'driving').forward).toBe(Access.No)
    expect(profileView({ highway: 'footway' }, 'walking').speed).toBe(5)
    // Two-wheelers stay off expressways (motorway) by default.
    expect(profileView({ highway: 'motorway' }, 'biking').forward).toBe(Access.No)
    expect(profileView({ highway: 'motorway' }, 'walking').forward).toBe(Access.No)
  })

  it('marks private and destination access as penalized, not closed', () => {
    expect(profileView({ highway: 'service', access: 'private' }, 'driving').forward).toBe(Access.Penalized)
    expect(profileView({ highway: 'residential', motor_vehicle: 'destination' }, 'trucking').forward).toBe(
      Access.Penalized,
    )
  })

  it('uses the class default speed, lowered (never raised) by maxspeed, capped for trucks', () => {
    expect(profileView({ highway: 'trunk' }, 'driving').speed).toBe(60)
    expect(profileView({ highway: 'trunk', maxspeed: '40' }, 'driving').speed).toBe(40)
    expect(profileView({ highway: 'trunk', maxspeed: '100' }, 'driving').speed).toBe(60)
    expect(profileView({ highway: 'motorway', maxspeed: '120' }, 'trucking').speed).toBe(60)
    expect(parseMaxspeed('30 mph')).toBeCloseTo(48.28, 1)
    expect(parseMaxspeed('IN:urban')).toBeUndefined()
    expect(profileView({ highway: 'service', service: 'parking_aisle' }, 'driving').speed).toBe(10)
  })

  it('keeps a way only when some profile may use it', () => {
    expect(wayAttributes({ highway: 'construction' })).toBeUndefined()
    expect(wayAttributes({ highway: 'platform' })).toBeUndefined()
    expect(wayAttributes({ building: 'yes' })).toBeUndefined()
    expect(wayAttributes({ highway: 'footway' })?.views.map((v) => v.speed)).toEqual([0, 0, 5, 0])
  })
})
