import { describe, expect, it } from 'vitest'
import { HIGHWAY_CLASSES } from '../../../../../electron/local-service/routing/data/profiles'
import {
  defaultSpeedModel,
  hourOfWeek,
  parseSpeedModelCsv,
  SpeedModelError,
  typicalFactors,
  utcOffsetSeconds,
} from '../../../../../electron/local-service/routing/data/speed-model'

const cls = (name: string) => HIGHWAY_CLASSES.indexOf(name as (typeof HIGHWAY_CLASSES)[number])

describe('speed model', () => {
  it('has 168 hourly factors per class: free at night, slow at the weekday peaks, never for footways', () => {
    const m = defaultSpeedModel()
    expect(m.model).toBe(true)
    const primary = m.factors[cls('primary')]!
    expect(primary).toHaveLength(168)
    expect(primary[3]).toBe(1) // Monday 03:00
    expect(primary[18]).toBeLessThan(0.6) // Monday 18:00
    expect(primary[6 * 24 + 18]).toBeGreaterThan(primary[18]!) // Sunday is lighter
    expect(m.factors[cls('motorway')]![18]).toBeGreaterThan(primary[18]!)
    expect(new Set(m.factors[cls('footway')])).toEqual(new Set([1]))
    expect(typicalFactors(m)[cls('primary')]).toBeLessThan(1)
  })

  it('reads hours of the week in the network time zone (Monday 00:00 = 0)', () => {
    // 2024-01-01 was a Monday; 00:30 in Kolkata is 19:00 UTC the day before.
    const t = Date.UTC(2023, 11, 31, 19, 0) / 1000
    expect(utcOffsetSeconds('Asia/Kolkata', t)).toBe(19800)
    expect(hourOfWeek(t, 'Asia/Kolkata')).toBe(0)
    expect(hourOfWeek(t, 'Europe/Stockholm')).toBe(6 * 24 + 20)
  })

  it('imports speed profiles from CSV in long and wide layouts, over the default', () => {
    const long = parseSpeedModelCsv('class,hour,factor\nprimary,18,0.3\narterial,19,0.4\n')
    expect(long.model).toBe(false)
    expect(long.factors[cls('primary')]![18]).toBe(0.3)
    expect(long.factors[cls('secondary')]![19]).toBe(0.4)
    expect(long.factors[cls('motorway')]).toEqual(defaultSpeedModel().factors[cls('motorway')])
    const header = ['class', ...Array.from({ length: 168 }, (_, i) => `h${i}`)].join(',')
    const wide = parseSpeedModelCsv(`${header}\n*,${new Array(168).fill('0.9').join(',')}\n`)
    expect(new Set(wide.factors.flat())).toEqual(new Set([0.9]))
  })

  it('names the line and the rule of a bad CSV', () => {
    expect(() => parseSpeedModelCsv('class,hour,factor\nprimary,200,0.5\n')).toThrow(/line 2: hour "200"/)
    expect(() => parseSpeedModelCsv('class,hour,factor\nfreeway,1,0.5\n')).toThrow(
      /line 2: "freeway" is not a highway class/,
    )
    expect(() => parseSpeedModelCsv('class,hour,factor\nprimary,1,7\n')).toThrow(SpeedModelError)
    expect(() => parseSpeedModelCsv('road,when\n')).toThrow(/first column must be "class"/)
  })
})
