import { describe, expect, it } from 'vitest'
import { standardize } from '../../../../../electron/local-service/places/engine/woodpecker'
import {
  generatedAddresses,
  loadLabelledAddresses,
  scoreAddresses,
} from '../../../../support/places-fixtures'
import { shippedGazetteer } from '../support'

/** The aims of issue 13 on the labelled addresses: PIN and state 0.95, city 0.9, the other fields 0.8. */
const AIMS: Record<string, number> = { pin: 0.95, state: 0.95, city: 0.9 }

describe('standardizer accuracy on the labelled addresses', () => {
  it('has at least 300 labelled addresses in varied forms', () => {
    const all = loadLabelledAddresses()
    expect(all.length).toBeGreaterThanOrEqual(300)
    expect(all.some((a) => /[\u0900-\u097f]/.test(a.address))).toBe(true)
    expect(all.some((a) => !a.pin)).toBe(true)
  })

  it('meets the precision and recall aims for every field', async () => {
    const g = await shippedGazetteer()
    const { scores } = scoreAddresses(loadLabelledAddresses(), (a) => standardize(g, a))
    for (const s of scores) {
      const aim = AIMS[s.field] ?? 0.8
      expect.soft(s.precision, `${s.field} precision`).toBeGreaterThanOrEqual(aim)
      expect.soft(s.recall, `${s.field} recall`).toBeGreaterThanOrEqual(aim)
    }
  })
})

describe('standardizer accuracy on addresses written from the gazetteer (GeoNames names)', () => {
  it('reads the city or town as written, in the orders Indians write addresses, without losing the rest', async () => {
    const g = await shippedGazetteer()
    // Seed 2: not the seed the engine was tuned on (1).
    const items = generatedAddresses(g, 1500, 2)
    const { scores, misses } = scoreAddresses(items, (a) => standardize(g, a))
    const score = Object.fromEntries(scores.map((s) => [s.field, s]))
    const cityMisses = misses.filter((m) => m.field === 'city' && m.expected).slice(0, 5)
    expect(score.city!.recall, JSON.stringify(cityMisses, null, 1)).toBeGreaterThanOrEqual(0.95)
    expect(score.city!.precision).toBeGreaterThanOrEqual(0.95)
    // "Sunam, Sangrur, Punjab": the town is the city, the district named after a larger town is not.
    const towns = items.filter((a) => a.form === 'town, district, state')
    expect(towns.length).toBeGreaterThan(100)
    expect(
      scoreAddresses(towns, (a) => standardize(g, a)).scores.find((s) => s.field === 'city')!.recall,
    ).toBeGreaterThanOrEqual(0.95)
    for (const field of ['pin', 'state', 'locality'] as const)
      expect.soft(score[field]!.recall, `${field} recall`).toBeGreaterThanOrEqual(0.96)
  })
})
