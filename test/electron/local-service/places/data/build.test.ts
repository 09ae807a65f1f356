import { beforeAll, describe, expect, it } from 'vitest'
import { mulberry32 } from '../../../../../bench/join-data'
import type { PlaceRow } from '../../../../../electron/local-service/places/data/gazetteer'
import type { Gazetteer } from '../../../../../electron/local-service/places/data/gazetteer'
import { buildPlaces, readSources, type PlaceSources } from '../../../../../scripts/data-places'
import { shippedGazetteer } from '../support'

/**
 * The build of `npm run data:places`, run on the real sources (the installed packages) cut to three states
 * to stay quick: Delhi, Rajasthan and Jammu and Kashmir (whose Leh and Kargil the build moves to Ladakh).
 */
const STATES = new Set(['07', '12', '24'])
/** The states whose every source record is in the cut (Ladakh's places come from Jammu and Kashmir's). */
const WHOLE = ['Delhi', 'Rajasthan']

let sources: PlaceSources
let g: Gazetteer
beforeAll(async () => {
  const all = readSources()
  sources = {
    postal: all.postal.filter((r) => STATES.has(r.a1)),
    cities: all.cities.filter((c) => STATES.has(c.a1)),
    states: all.states,
  }
  g = await shippedGazetteer()
}, 120_000)

function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const random = mulberry32(seed)
  const out = [...xs]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}

const elocsByKey = (built: { rows: PlaceRow[]; keys: string[] }) =>
  new Map(built.keys.map((key, i) => [key, built.rows[i]!.eloc]))

describe('gazetteer build: eLocs', () => {
  it('gives every place the same eLoc when built twice, and whatever order the records come in', () => {
    const once = buildPlaces(sources)
    const again = buildPlaces(sources)
    const reordered = buildPlaces({
      postal: shuffled(sources.postal, 1),
      cities: shuffled(sources.cities, 2),
      states: shuffled(sources.states, 3),
    })
    expect(once.rows.length).toBeGreaterThan(10_000)
    expect(again.rows).toEqual(once.rows)
    const codes = elocsByKey(once)
    expect(elocsByKey(reordered)).toEqual(codes)
    expect(new Set(codes.values()).size).toBe(codes.size)
    // Rows come in the order of the places' identities, not of the records.
    expect(reordered.keys).toEqual(once.keys)
  }, 60_000)

  it("gives a state's places the eLocs the shipped gazetteer gives them, whatever else is built", () => {
    const built = buildPlaces(sources)
    const stateRow = (row: PlaceRow) => (row.state >= 0 ? built.rows[row.state]!.name : row.name)
    let compared = 0
    for (const row of built.rows) {
      if (!WHOLE.includes(stateRow(row))) continue
      const shipped = g.byEloc(row.eloc)
      expect(shipped, `${row.kind} ${row.name} ${row.eloc}`).toBeGreaterThanOrEqual(0)
      expect([g.kindOf(shipped), g.name(shipped), g.pin[shipped]]).toEqual([row.kind, row.name, row.pin])
      expect([g.latitude(shipped), g.longitude(shipped)]).toEqual([row.lat, row.lon])
      compared++
    }
    expect(compared).toBeGreaterThan(5_000)
  }, 60_000)
})
