import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLocalService, type LocalService } from '../../../../electron/local-service/index'
import { TOKEN } from '../helpers'

/** eLocs through a restart of the local service (its real start, a real server on 127.0.0.1, one workspace). */
let dir: string
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'geo-places-restart-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const auth = { authorization: `Bearer ${TOKEN}` }
async function get(service: LocalService, route: string, query: Record<string, string>) {
  const r = await fetch(`${service.urls.atlas_url}${route}?${new URLSearchParams(query)}`, { headers: auth })
  const text = await r.text()
  return { status: r.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : null }
}

interface Suggestion {
  eLoc: string
  placeName: string
  type: string
  latitude: number
  longitude: number
}
const QUERIES = ['Jaipur', 'Koramangala', 'Connaught Place', 'Pune', 'Leh', 'Sunam']
const ADDRESSES = [
  'Xyzzy Plugh, Jaipur 302001',
  'Koramangala 4th Block, Bangalore 560034',
  'Sector 15, Gurgaon',
]

/** What an analyst could have saved: every suggestion's eLoc and place, and each address's matched eLoc. */
async function readElocs(service: LocalService) {
  const suggestions: Record<string, Suggestion[]> = {}
  for (const query of QUERIES) {
    const r = await get(service, '/api/places/search/json', { query })
    expect(r.status, query).toBe(200)
    suggestions[query] = (r.json!.suggestedLocations as Suggestion[]).map((s) => ({
      eLoc: s.eLoc,
      placeName: s.placeName,
      type: s.type,
      latitude: s.latitude,
      longitude: s.longitude,
    }))
  }
  const matches: Record<string, string> = {}
  for (const address of ADDRESSES) {
    const r = await get(service, '/api/places/woodpecker', { address })
    expect(r.status, address).toBe(200)
    matches[address] = (r.json!.match as { eLoc: string }).eLoc
  }
  return { suggestions, matches }
}

describe('eLocs through a restart of the service', () => {
  it('name the same places before and after, and places are found by them', async () => {
    const first = await startLocalService({ workspaceDir: dir, token: TOKEN, sampleData: false })
    let before: Awaited<ReturnType<typeof readElocs>>
    let saved: { eLoc: string }
    try {
      before = await readElocs(first)
      const post = await fetch(`${first.urls.atlas_url}/local/places/saved`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ placeName: 'Site office', latitude: 26.9, longitude: 75.8 }),
      })
      expect(post.status).toBe(201)
      saved = (await post.json()) as { eLoc: string }
    } finally {
      await first.close()
    }

    const second = await startLocalService({ workspaceDir: dir, token: TOKEN, sampleData: false })
    try {
      const after = await readElocs(second)
      expect(after).toEqual(before)
      expect(before.suggestions.Jaipur![0]).toMatchObject({ placeName: 'Jaipur', type: 'CITY' })

      // Each eLoc still finds its place: as a cop: filter (the place itself is inside itself).
      for (const s of Object.values(after.suggestions).flat().slice(0, 20)) {
        const r = await get(second, '/api/places/search/json', {
          query: s.placeName,
          filter: `cop:${s.eLoc.toLowerCase()}`,
        })
        expect(r.status, `${s.placeName} ${s.eLoc}`).toBe(200)
        const found = r.json!.suggestedLocations as Suggestion[]
        expect(
          found.map((f) => f.eLoc),
          `${s.placeName} ${s.eLoc}`,
        ).toContain(s.eLoc)
      }
      // The saved place keeps its eLoc and is found by it.
      const list = await fetch(`${second.urls.atlas_url}/local/places/saved`, { headers: auth })
      const places = ((await list.json()) as { places: Array<{ eLoc: string }> }).places
      expect(places.map((p) => p.eLoc)).toEqual([saved.eLoc])
      const near = await get(second, '/api/places/search/json', {
        query: 'Jaipur',
        filter: `cop:${saved.eLoc}`,
      })
      expect(near.status).toBe(200)
    } finally {
      await second.close()
    }
  }, 120_000)
})
