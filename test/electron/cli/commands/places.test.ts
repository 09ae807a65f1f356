import { readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../../../electron/core/secrets/memory-secret-store'
import { cli, tempDir } from '../cli-harness'

let dir: string
let env: NodeJS.ProcessEnv
const secrets = new MemorySecretStore()
beforeAll(async () => {
  dir = await tempDir('geo-cli-places-')
  env = {
    GEO_ANALYST_CONFIG_DIR: path.join(dir, 'config'),
    GEO_ANALYST_DATA_DIR: path.join(dir, 'data'),
    GEO_ANALYST_WORKSPACE: path.join(dir, 'workspace'),
  }
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('geo-analyst places (built-in Local profile)', () => {
  it('standardize prints the parts as a table, or JSON', async () => {
    const r = await cli(['places', 'standardize', 'Flat 302, MG Road, Gurgaon, Haryana 122001'], env, secrets)
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/house number\s+Flat 302/)
    expect(r.stdout).toMatch(/city\s+Gurugram/)
    const json = await cli(['places', 'standardize', '--json', 'Koramangala, Bangalore 560034'], env, secrets)
    expect(JSON.parse(json.stdout)).toMatchObject({
      found: true,
      address: { referentialInformation: { pincodes: '560034' } },
    })
  })

  it('suggest lists places, with filters', async () => {
    const r = await cli(['places', 'suggest', 'indiranagar', '--filter', 'pin:560038'], env, secrets)
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/^NAME\s+TYPE/)
    expect(r.stdout).toMatch(/Indiranagar\s+LOCALITY\s+Bengaluru, Karnataka, 560038/)
    const bad = await cli(['places', 'suggest', 'x', '--pod', 'TOWN'], env, secrets)
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--pod must be one of/)
  })

  it('geocode turns a CSV column into GeoJSON points with standardized and match columns', async () => {
    const csv = path.join(dir, 'addresses.csv')
    const out = path.join(dir, 'points.geojson')
    await writeFile(
      csv,
      'id,address\n1,"12 MG Road, Bangalore 560001"\n2,"Koramangala, Bengaluru 560034"\n3,qwzx plmk\n',
    )
    const r = await cli(['places', 'geocode', csv, '--column', 'address', '--out', out], env, secrets)
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/2 of 3 addresses placed/)
    const fc = JSON.parse(await readFile(out, 'utf8')) as {
      features: Array<{ geometry: { coordinates: number[] } | null; properties: Record<string, unknown> }>
    }
    expect(fc.features).toHaveLength(3)
    expect(fc.features[0]!.properties).toMatchObject({
      id: '1',
      std_city: 'Bengaluru',
      std_pincode: '560001',
    })
    expect(fc.features[1]!.properties).toMatchObject({ std_locality: 'Koramangala', match_level: 'locality' })
    expect(fc.features[1]!.geometry!.coordinates).toHaveLength(2)
    expect(fc.features[2]).toMatchObject({ geometry: null, properties: { match_level: 'none' } })
    const missing = await cli(['places', 'geocode', csv, '--column', 'addr', '--out', out], env, secrets)
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/no column "addr"/)
  })
})
