import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLocalService, type LocalService } from '../../../../electron/local-service/index'
import { tempDir } from '../helpers'
import { bearer, teamUsers } from './team-users'

/**
 * Imports by path on a team server (issue 32): a user names a file on the server's disk, which the server
 * would read for them. Real services on 127.0.0.1 with a users file: without `importDir` no path is taken;
 * with it, files in that folder only (`..`, absolute paths elsewhere and symbolic links out of it refused
 * without the disk saying whether they exist). The single-token service takes any path (the analyst's own
 * machine).
 */
let dir: string
let outside: string
let tokens: Record<string, string>
let open: LocalService
let folder: LocalService
let single: LocalService

const geojson = (x: number) =>
  JSON.stringify({
    type: 'FeatureCollection',
    features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [x, 1] }, properties: { x } }],
  })

async function importPath(
  service: LocalService,
  file: string,
  name: string,
  token: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(`${new URL(service.urls.mgis_url).origin}/local/datasets/import`, {
    method: 'POST',
    headers: bearer(token, true),
    body: JSON.stringify({ path: file, name }),
  })
  return { status: r.status, body: (await r.json()) as Record<string, unknown> }
}

beforeAll(async () => {
  dir = await tempDir('geo-server-files-')
  outside = path.join(dir, 'elsewhere')
  const imports = path.join(dir, 'imports')
  mkdirSync(outside)
  mkdirSync(imports)
  writeFileSync(path.join(outside, 'private.geojson'), geojson(1))
  writeFileSync(path.join(imports, 'shared.geojson'), geojson(2))
  symlinkSync(path.join(outside, 'private.geojson'), path.join(imports, 'link.geojson'))
  const users = await teamUsers(dir)
  tokens = users.tokens
  const start = (name: string, options: { usersFile?: string; importDir?: string }) =>
    startLocalService({ workspaceDir: path.join(dir, name), sampleData: false, token: 'single', ...options })
  ;[open, folder, single] = await Promise.all([
    start('none', { usersFile: users.file }),
    start('folder', { usersFile: users.file, importDir: imports }),
    start('single', {}),
  ])
}, 60_000)
afterAll(async () => {
  await Promise.all([open, folder, single].map((s) => s?.close()))
  await rm(dir, { recursive: true, force: true })
})

describe('imports by path on a team server', () => {
  it('takes no path from a user without an import folder, on every route that reads one', async () => {
    const file = path.join(outside, 'private.geojson')
    const origin = new URL(open.urls.mgis_url).origin
    for (const [route, body] of [
      ['/local/datasets/import', { path: file, name: 'private' }],
      ['/local/road-networks/import', { path: file, id: 'private' }],
      ['/local/road-networks/speed-profiles', { path: file }],
    ] as const) {
      const r = await fetch(`${origin}${route}`, {
        method: 'POST',
        headers: bearer(tokens.ann!, true),
        body: JSON.stringify(body),
      })
      const answer = (await r.json()) as { message: string }
      expect(r.status, route).toBe(403)
      expect(answer.message).toMatch(/takes no path on its disk from its users.*--import-dir/)
      expect(answer.message).not.toContain(outside)
    }
  })

  it('takes files in the import folder only: not `..`, not elsewhere, not a link out of it', async () => {
    const inside = await importPath(folder, 'shared.geojson', 'shared', tokens.ann!)
    expect(inside.status, JSON.stringify(inside.body)).toBe(201)
    expect(inside.body).toMatchObject({ layername: 'shared', featureCount: 1 })

    for (const [file, name] of [
      ['../elsewhere/private.geojson', 'up'],
      [path.join(outside, 'private.geojson'), 'absolute'],
      ['link.geojson', 'link'],
    ]) {
      const refused = await importPath(folder, file!, name!, tokens.ann!)
      expect(refused.status, file).toBe(403)
      expect(String(refused.body.message)).toMatch(/only files in the server's import folder/)
    }
    // Outside the folder, a missing file and a present one answer alike: the disk is not asked.
    const missing = await importPath(folder, path.join(outside, 'nothing.geojson'), 'nothing', tokens.ann!)
    expect(missing.status).toBe(403)
    expect((await importPath(folder, 'nothing.geojson', 'nothing', tokens.ann!)).status).toBe(404)

    const listed = await fetch(`${folder.urls.mgis_v2_url}/getLayersList`, { headers: bearer(tokens.ann!) })
    const names = ((await listed.json()) as { data: { layername: string }[] }).data.map((d) => d.layername)
    expect(names).toEqual(['shared'])
  })

  it('the single-token service (the analyst’s own machine) takes any path', async () => {
    const mine = await importPath(single, path.join(outside, 'private.geojson'), 'mine', 'single')
    expect(mine.status, JSON.stringify(mine.body)).toBe(201)
  })
})
