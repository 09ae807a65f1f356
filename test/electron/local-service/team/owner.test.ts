import { readFileSync, writeFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLocalService, type LocalService } from '../../../../electron/local-service/index'
import { runAs } from '../../../../electron/local-service/team/principal'
import { Workspace } from '../../../../electron/local-service/workspace/workspace'
import { feature, runService, square, tempDir, TOKEN } from '../helpers'
import { bearer, saveQuery, teamUsers } from './team-users'
import { cli } from '../../cli/cli-harness'
import { parseLayerList } from '../../../../electron/contract/gis/layers'
import { datasetFromLayer } from '../../../../electron/core/gis/datasets'

/**
 * Owner attribution over a folder workspace (issue 32): a dataset saved or imported by a team server's
 * user records them in its manifest, and the dataset list (§4.6) shows it as the extension field `owner`;
 * a dataset the single-token service saved has none.
 */
let dir: string
let service: LocalService
let tokens: Record<string, string>

const datasets = {
  places: [feature({ type: 'Point', coordinates: [1, 1] }, { id: 1, name: 'a' })],
  zones: [feature(square(0, 0, 5, 5), { zone: 'west' })],
}

beforeAll(async () => {
  dir = await tempDir('geo-owner-')
  const workspace = new Workspace(dir)
  for (const [name, features] of Object.entries(datasets))
    await workspace.create(name, features, { source: 'test' })
  const users = await teamUsers(dir)
  tokens = users.tokens
  // The users import by path from this folder (a team server takes no other path from them).
  service = await startLocalService({
    workspaceDir: dir,
    usersFile: users.file,
    importDir: dir,
    sampleData: false,
  })
})
afterAll(async () => {
  await service?.close()
  await rm(dir, { recursive: true, force: true })
})

async function listed(svc = service, token = tokens.rita!): Promise<Map<string, Record<string, unknown>>> {
  const r = await fetch(`${svc.urls.mgis_v2_url}/getLayersList`, { headers: bearer(token) })
  expect(r.status).toBe(200)
  const data = ((await r.json()) as { data: Record<string, unknown>[] }).data
  return new Map(data.map((d) => [String(d.layername), d]))
}

describe('owner of a dataset in a folder workspace', () => {
  it("a join saved by a user records them, in the manifest and in the list's `owner`", async () => {
    const r = await fetch(`${service.urls.mgis_url}/query_apply/join?${saveQuery('anns_places')}`, {
      method: 'POST',
      headers: bearer(tokens.ann!),
    })
    expect(r.status).toBe(200)
    expect(((await r.json()) as Record<string, unknown>).savedDataset).toBe('anns_places')
    const manifest = JSON.parse(
      readFileSync(path.join(dir, 'datasets', 'anns_places', 'manifest.json'), 'utf8'),
    )
    expect(manifest.owner).toBe('ann')
    // Another user (read-only) sees who saved it.
    expect((await listed()).get('anns_places')).toMatchObject({ layername: 'anns_places', owner: 'ann' })
  })

  it('an import by a user records them', async () => {
    const file = path.join(dir, `owner-import-${process.pid}.geojson`)
    writeFileSync(
      file,
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          { type: 'Feature', geometry: { type: 'Point', coordinates: [3, 3] }, properties: { n: 1 } },
        ],
      }),
    )
    const origin = new URL(service.urls.mgis_url).origin
    const r = await fetch(`${origin}/local/datasets/import`, {
      method: 'POST',
      headers: bearer(tokens.bob!, true),
      body: JSON.stringify({ path: file, name: 'bobs_points' }),
    })
    expect(r.status).toBe(201)
    expect(((await r.json()) as Record<string, unknown>).layername).toBe('bobs_points')
    expect((await listed()).get('bobs_points')).toMatchObject({ owner: 'bob' })
  })

  it("the app's client keeps `owner` from the list for the datasets panel", async () => {
    const r = await fetch(`${service.urls.mgis_v2_url}/getLayersList`, { headers: bearer(tokens.bob!) })
    const parsed = parseLayerList(await r.json())
    if (!parsed.ok) throw new Error(parsed.reason)
    const shown = parsed.value.layers.map((layer) => datasetFromLayer(layer, false))
    expect(shown.find((d) => d.layername === 'anns_places')).toMatchObject({ owner: 'ann', local: false })
    expect(shown.find((d) => d.layername === 'places')).not.toHaveProperty('owner')
  })

  it('datasets nobody is recorded for have no `owner` field', async () => {
    const list = await listed()
    expect(list.get('places')).toBeDefined()
    expect(list.get('places')).not.toHaveProperty('owner')
  })

  it('the single-token service records no owner', async () => {
    const single = await runService(datasets)
    try {
      const r = await fetch(`${single.service.urls.mgis_url}/query_apply/join?${saveQuery('nobodys')}`, {
        method: 'POST',
        headers: bearer(TOKEN),
      })
      expect(r.status).toBe(200)
      await r.text()
      const list = await listed(single.service, TOKEN)
      expect(list.get('nobodys')).toBeDefined()
      expect(list.get('nobodys')).not.toHaveProperty('owner')
    } finally {
      await single.stop()
    }
  })

  it('`geo-analyst datasets` shows an OWNER column when any dataset has one, none otherwise', async () => {
    const run = await cli(['datasets', '--workspace', dir], { HOME: dir })
    expect(run.code).toBe(0)
    const lines = run.stdout.trim().split('\n')
    expect(lines[0]).toMatch(/^NAME\s+TYPE\s+FEATURES\s+OWNER\s+SOURCE$/)
    expect(lines.find((l) => l.startsWith('anns_places'))).toMatch(/\s1\s+ann\s+join: /)
    expect(lines.find((l) => l.startsWith('places'))).toMatch(/\s1\s+-\s+test$/)
    const json = await cli(['datasets', '--workspace', dir, '--json'], { HOME: dir })
    const listed = JSON.parse(json.stdout) as Array<{ name: string; owner?: string }>
    expect(listed.find((d) => d.name === 'bobs_points')?.owner).toBe('bob')
    const plain = await tempDir('geo-owner-plain-')
    try {
      await new Workspace(plain).create('solo', datasets.places, { source: 'test' })
      const none = await cli(['datasets', '--workspace', plain], { HOME: plain })
      expect(none.stdout.split('\n')[0]).toMatch(/^NAME\s+TYPE\s+FEATURES\s+SOURCE$/)
    } finally {
      await rm(plain, { recursive: true, force: true })
    }
  })

  it('Workspace.create inside runAs records the user; the local principal records nobody', async () => {
    const workspace = new Workspace(dir)
    const one = [feature({ type: 'Point', coordinates: [2, 2] }, { id: 2 })]
    const made = await runAs({ user: 'cleo', groups: ['gis'], readOnly: false }, null, () =>
      workspace.create('cleos', one, { source: 'test' }),
    )
    expect(made.owner).toBe('cleo')
    expect((await workspace.manifest('cleos')).owner).toBe('cleo')
    const local = await runAs({ user: 'local', groups: 'all', readOnly: false }, null, () =>
      workspace.create('locals', one, { source: 'test' }),
    )
    expect(local.owner).toBeUndefined()
  })
})
