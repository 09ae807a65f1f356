import { readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeTown, townNode } from '../../../support/road-town'
import { runService, tempDir, TOKEN, type Running } from '../helpers'

let svc: Running
let extracts: { pbf: string; xml: string; geojson: string }

beforeAll(async () => {
  svc = await runService({}, { licenceKey: 'key' })
  extracts = await writeTown(await tempDir())
})
afterAll(async () => svc.stop())

const local = (p: string, init: RequestInit = {}) =>
  fetch(new URL(svc.service.urls.mgis_url).origin + p, {
    ...init,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...init.headers },
  })

/** The NDJSON lines of an import answer. */
async function importLines(body: unknown): Promise<Array<Record<string, unknown>>> {
  const r = await local('/local/road-networks/import', { method: 'POST', body: JSON.stringify(body) })
  expect(r.status).toBe(200)
  return (await r.text())
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
}

describe('road networks of the workspace (/local/road-networks)', () => {
  it('lists the bundled sample with its attribution, and no file paths', async () => {
    const r = await local('/local/road-networks')
    const json = (await r.json()) as {
      networks: Array<Record<string, unknown>>
      speedModel: { model: boolean }
    }
    expect(json.networks).toEqual([
      expect.objectContaining({
        id: 'gothenburg-sample',
        bundled: true,
        attribution: 'OpenStreetMap contributors, ODbL',
      }),
    ])
    expect(json.networks[0]!.file).toBeUndefined()
    expect(json.speedModel.model).toBe(true)
  })

  it('imports an extract with progress; its positions then route on it; removing it is final', async () => {
    const lines = await importLines({ path: extracts.pbf, id: 'town', name: 'Test town' })
    const progress = lines.filter((l) => l.progress).map((l) => (l.progress as { phase: string }).phase)
    expect(progress).toContain('reading nodes')
    expect(lines.at(-1)!.network).toMatchObject({
      id: 'town',
      name: 'Test town',
      bundled: false,
      counts: { edges: 17 },
    })
    const listed = (await (await local('/local/road-networks')).json()) as { networks: Array<{ id: string }> }
    expect(listed.networks.map((n) => n.id)).toEqual(['town', 'gothenburg-sample'])
    const a = townNode(1).join(',')
    const b = townNode(8).join(',')
    const m = (await (
      await fetch(`${svc.service.urls.advancedmaps_url}/key/distance_matrix/driving/${a};${b}`)
    ).json()) as {
      network: string
      results: { code: string }
    }
    expect(m).toMatchObject({ network: 'town', results: { code: 'Ok' } })
    // Taken id: refused unless replacing.
    const again = await local('/local/road-networks/import', {
      method: 'POST',
      body: JSON.stringify({ path: extracts.xml, id: 'town' }),
    })
    expect(again.status).toBe(409)
    expect((await local('/local/road-networks/town', { method: 'DELETE' })).status).toBe(200)
    expect((await local('/local/road-networks/town', { method: 'DELETE' })).status).toBe(404)
    expect((await local('/local/road-networks/gothenburg-sample', { method: 'DELETE' })).status).toBe(409)
  })

  it('refuses what is not an extract, naming the field', async () => {
    const bad = path.join(await tempDir(), 'notes.txt')
    writeFileSync(bad, 'x')
    const r = await local('/local/road-networks/import', {
      method: 'POST',
      body: JSON.stringify({ path: bad }),
    })
    expect(r.status).toBe(400)
    expect(((await r.json()) as { field: string }).field).toBe('path')
    const broken = path.join(await tempDir(), 'broken.osm')
    writeFileSync(broken, '<html/>')
    const lines = await importLines({ path: broken })
    expect(lines.at(-1)!.error).toMatchObject({ message: expect.stringMatching(/not an OSM XML file/) })
    // Nothing was left in the workspace's networks folder.
    expect(readdirSync(path.join(svc.dir, 'road-networks')).filter((f) => !f.startsWith('.cache'))).toEqual(
      [],
    )
  })

  it('imports speed profiles from CSV (used by ETA and predictive), and goes back to the model', async () => {
    const csv = path.join(await tempDir(), 'speeds.csv')
    writeFileSync(csv, 'class,hour,factor\n*,3,0.5\n')
    const r = await local('/local/road-networks/speed-profiles', {
      method: 'POST',
      body: JSON.stringify({ path: csv }),
    })
    expect(r.status).toBe(201)
    expect(((await r.json()) as { speedModel: { model: boolean } }).speedModel.model).toBe(false)
    // Monday 03:00 in Stockholm: the imported factor halves the speed of every road.
    const depart = Date.UTC(2024, 0, 8, 2, 0) / 1000
    const trip = async () =>
      (
        (await (
          await fetch(
            `${svc.service.urls.advancedmaps_url}/key/distance_matrix_predictive/driving/11.9668,57.7072;11.94,57.699?dep_time=${depart}`,
          )
        ).json()) as { results: { durations: number[][] } }
      ).results.durations[0]![0]!
    const slow = await trip()
    expect((await local('/local/road-networks/speed-profiles', { method: 'DELETE' })).status).toBe(200)
    const free = await trip()
    expect(slow).toBeGreaterThan(free * 1.8)
    const bad = path.join(await tempDir(), 'bad.csv')
    writeFileSync(bad, 'class,hour,factor\nfreeway,1,0.5\n')
    const refused = await local('/local/road-networks/speed-profiles', {
      method: 'POST',
      body: JSON.stringify({ path: bad }),
    })
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as { message: string }).message).toMatch(/line 2: "freeway"/)
  })
})
