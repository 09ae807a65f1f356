import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../../../electron/core/secrets/memory-secret-store'
import { writeTown } from '../../../support/road-town'
import { cli, tempDir } from '../cli-harness'

let env: NodeJS.ProcessEnv
const store = new MemorySecretStore()

beforeAll(async () => {
  env = {
    GEO_ANALYST_CONFIG_DIR: await tempDir('geo-cli-config-'),
    GEO_ANALYST_DATA_DIR: await tempDir('geo-cli-data-'),
  }
})
afterAll(() => undefined)

describe('geo-analyst routing', () => {
  it('matrix: a table of km and h:mm on the Local profile, — for a position no network covers', async () => {
    const r = await cli(
      ['routing', 'matrix', '11.9668,57.7072;11.9746,57.7089;77.2,28.6', '--sources', '0;1'],
      env,
      store,
    )
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const lines = r.stdout.trim().split('\n')
    expect(lines[0]).toMatch(/^FROM\\TO\s+0\s+1\s+2$/)
    expect(lines[1]).toMatch(/^0\s+0\.0 km 0:00\s+\d+\.\d km \d:\d\d\s+—$/)
    expect(lines.at(-1)).toMatch(/results.code Ok; network gothenburg-sample/)
    const json = await cli(['routing', 'matrix', '11.9668,57.7072;11.9746,57.7089', '--json'], env, store)
    expect(JSON.parse(json.stdout)).toMatchObject({ code: 'Ok', sources: [0], destinations: [0, 1] })
  })

  it('matrix: a forbidden combination is refused with the validator’s words (exit 2)', async () => {
    const r = await cli(
      [
        'routing',
        'matrix',
        '11.9668,57.7072;11.9746,57.7089',
        '--profile',
        'walking',
        '--resources',
        'distance_matrix_eta',
      ],
      env,
      store,
    )
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/walking is available with resources distance_matrix only/)
  })

  it('import, networks, remove: an extract into the workspace given by --workspace', async () => {
    const workspace = await tempDir('geo-cli-ws-')
    const { pbf } = await writeTown(await tempDir('geo-cli-town-'))
    const imported = await cli(['routing', 'import', pbf, '--workspace', workspace], env, store)
    expect(imported.code).toBe(0)
    expect(imported.stdout).toMatch(/Imported town: 7 ways, 12 nodes, 17 edges/)
    expect(imported.stderr).toMatch(/reading ways/)
    const again = await cli(['routing', 'import', pbf, '--workspace', workspace], env, store)
    expect(again.code).not.toBe(0)
    expect(again.stderr).toMatch(/exists/)
    const list = await cli(['routing', 'networks', '--workspace', workspace, '--json'], env, store)
    expect((JSON.parse(list.stdout) as Array<{ id: string }>).map((n) => n.id)).toEqual([
      'town',
      'gothenburg-sample',
    ])
    expect(list.stdout).not.toContain(workspace)
    expect((await cli(['routing', 'remove', 'town', '--workspace', workspace], env, store)).code).toBe(0)
    const bad = await cli(['routing', 'import', '/nope/region.txt', '--workspace', workspace], env, store)
    expect(bad.code).toBe(2)
  })
})
