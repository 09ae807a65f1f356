import { request } from 'node:http'
import { readFile, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLocalService } from '../../../../electron/local-service/index'
import { addUser, revokeUser } from '../../../../electron/local-service/team/users-file'
import { feature, runService, square, tempDir, TOKEN, type Running } from '../helpers'

/**
 * A team server's users (issue 32): a real service on 127.0.0.1 started with a users file, called over real
 * HTTP with the secrets `users add` printed.
 */

const cities = [
  feature({ type: 'Point', coordinates: [1, 1] }, { name: 'a' }),
  feature({ type: 'Point', coordinates: [50, 50] }, { name: 'c' }),
]
const regions = [feature(square(0, 0, 5, 5), { label: 'R1' })]
const within = {
  queryType: 'spatialOperation',
  datasetSource: 'cities',
  datasetRef: 'regions',
  operator: 'Within',
  sourceProperty: 'geom',
}

interface Answer {
  status: number
  json: Record<string, unknown>
  ms: number
}

/** One request from `localAddress` (any 127.x address is this machine), timed. */
function call(
  url: string,
  init: { method?: string; token?: string; body?: unknown; localAddress?: string } = {},
): Promise<Answer> {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const body = init.body === undefined ? undefined : JSON.stringify(init.body)
    const req = request(
      url,
      {
        method: init.method ?? 'GET',
        localAddress: init.localAddress ?? '127.0.0.1',
        agent: false,
        headers: {
          ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          let json: Record<string, unknown> = {}
          try {
            json = JSON.parse(text) as Record<string, unknown>
          } catch {
            json = { text }
          }
          resolve({ status: res.statusCode ?? 0, json, ms: performance.now() - started })
        })
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

let svc: Running
let usersFile: string
let base: { mgis: string; v2: string; telematics: string; matrix: string }
const secrets: Record<string, { token: string; licenceKey: string }> = {}

beforeAll(async () => {
  usersFile = path.join(await tempDir('geo-users-'), 'team', 'users.json')
  for (const [name, options] of Object.entries({
    ann: {},
    reader: { readOnly: true },
    placer: { groups: ['places'] as const },
    leaver: {},
    slow: {},
  })) {
    const added = await addUser(usersFile, { name, ...options })
    secrets[name] = { token: added.token, licenceKey: added.licenceKey }
  }
  svc = await runService({ cities, regions }, { usersFile })
  const urls = svc.service.urls
  base = {
    mgis: urls.mgis_url,
    v2: urls.mgis_v2_url,
    telematics: urls.telematics_url,
    matrix: urls.advancedmaps_url,
  }
}, 60_000)
afterAll(() => svc?.stop())

describe('the users file', () => {
  it('keeps no secret it printed, only salted hashes, readable by its owner only', async () => {
    const text = await readFile(usersFile, 'utf8')
    for (const { token, licenceKey } of Object.values(secrets)) {
      expect(text).not.toContain(token)
      expect(text).not.toContain(licenceKey)
      // Not even the random part of a secret (what follows the user's name).
      expect(text).not.toContain(token.slice(-43))
      expect(text).not.toContain(licenceKey.slice(-43))
    }
    const users = (JSON.parse(text) as { users: Array<{ token: { salt: string; N: number } }> }).users
    expect(new Set(users.map((u) => u.token.salt)).size).toBe(users.length)
    expect(users[0]!.token.N).toBeGreaterThanOrEqual(16384)
    expect((await stat(usersFile)).mode & 0o777).toBe(0o600)
  })

  it('fails the start of a service, in plain words, when it cannot be read', async () => {
    const dir = await tempDir('geo-users-missing-')
    await expect(
      startLocalService({ workspaceDir: dir, sampleData: false, usersFile: path.join(dir, 'nope.json') }),
    ).rejects.toThrow(/users file .*nope\.json does not exist/)
    const broken = path.join(dir, 'broken.json')
    await writeFile(broken, '{"version": 1, "users": [')
    await expect(
      startLocalService({ workspaceDir: dir, sampleData: false, usersFile: broken }),
    ).rejects.toThrow(/users file .*broken\.json is not valid JSON/)
  })
})

describe('a service with a users file', () => {
  it('answers 401 for a wrong token, a made-up one of a real user, and the single token of today', async () => {
    const list = `${base.v2}/getLayersList`
    expect((await call(list, { token: secrets.ann!.token })).status).toBe(200)
    const wrong = await call(list, { token: 'not-a-user-token' })
    expect(wrong.status).toBe(401)
    expect(wrong.json.message).toMatch(/wrong bearer token/)
    const forged = secrets.ann!.token.slice(0, -4) + 'AAAA'
    expect((await call(list, { token: forged })).status).toBe(401)
    // A licence key is not a token, and the service's own token is not accepted once it has users.
    expect((await call(list, { token: secrets.ann!.licenceKey })).status).toBe(401)
    expect((await call(list, { token: TOKEN })).status).toBe(401)
    expect((await call(list, { token: svc.service.token })).status).toBe(401)
    expect((await call(list)).json.message).toMatch(/no bearer token/)
  })

  it('takes the licence key of a user in the distance matrix path, and refuses a wrong one', async () => {
    const path = 'distance_matrix/driving/77.2,28.6;77.3,28.7'
    const right = await call(`${base.matrix}/${encodeURIComponent(secrets.ann!.licenceKey)}/${path}`)
    expect(right.status, JSON.stringify(right.json)).not.toBe(401)
    expect(right.status).not.toBe(403)
    const wrong = await call(`${base.matrix}/${encodeURIComponent(secrets.ann!.token)}/${path}`)
    expect(wrong.status).toBe(401)
    expect(wrong.json.message).toMatch(/wrong licence key/)
  })

  it('refuses a read-only user a join that saves and an alarm, but lists and joins without saving', async () => {
    const reader = secrets.reader!.token
    expect((await call(`${base.v2}/getLayersList`, { token: reader })).status).toBe(200)
    const plain = await call(`${base.mgis}/query_apply/join?${new URLSearchParams(within)}`, {
      method: 'POST',
      token: reader,
    })
    expect(plain.status, JSON.stringify(plain.json)).toBe(200)

    const saving = new URLSearchParams({ ...within, saveAsNewDataset: 'true', newDatasetNme: 'inside' })
    const save = await call(`${base.mgis}/query_apply/join?${saving}`, { method: 'POST', token: reader })
    expect(save.status).toBe(403)
    expect(save.json.message).toMatch(/user reader is read-only/)
    const alarm = await call(`${base.telematics}/alarm`, {
      method: 'POST',
      token: reader,
      body: { alarmType: 24, deviceId: [4242] },
    })
    expect(alarm.status).toBe(403)
    expect(alarm.json.message).toMatch(/user reader is read-only/)
    const importing = await call(`${base.mgis.replace(/\/mgis$/, '')}/local/datasets/import`, {
      method: 'POST',
      token: reader,
      body: { path: '/nonexistent.geojson' },
    })
    expect(importing.status).toBe(403)

    // Nothing was saved or configured; the same requests from a read-write user go through.
    const layers = await call(`${base.v2}/getLayersList`, { token: reader })
    expect(JSON.stringify(layers.json)).not.toContain('inside')
    expect((await call(`${base.telematics}/alarm`, { token: reader })).json.data).toEqual([])
    const written = await call(`${base.mgis}/query_apply/join?${saving}`, {
      method: 'POST',
      token: secrets.ann!.token,
    })
    expect(written.status, JSON.stringify(written.json)).toBe(200)
    expect(JSON.stringify((await call(`${base.v2}/getLayersList`, { token: reader })).json)).toContain(
      'inside',
    )
    const created = await call(`${base.telematics}/alarm`, {
      method: 'POST',
      token: secrets.ann!.token,
      body: { alarmType: 24, deviceId: [4242] },
    })
    expect([201, 203]).toContain(created.status)
  })

  it('answers 403 naming the group a user is not granted', async () => {
    const placer = secrets.placer!
    const list = await call(`${base.v2}/getLayersList`, { token: placer.token })
    expect(list.status).toBe(403)
    expect(list.json.message).toMatch(/user placer is not granted the gis operations/)
    const matrix = await call(
      `${base.matrix}/${encodeURIComponent(placer.licenceKey)}/distance_matrix/driving/77.2,28.6;77.3,28.7`,
    )
    expect(matrix.status).toBe(403)
    expect(matrix.json.message).toMatch(/routing/)
  })

  it('refuses a revoked token without a restart', async () => {
    const list = `${base.v2}/getLayersList`
    const token = secrets.leaver!.token
    expect((await call(list, { token })).status).toBe(200)
    await revokeUser(usersFile, 'leaver')
    const deadline = Date.now() + 5_000
    let answer = await call(list, { token })
    while (answer.status === 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      answer = await call(list, { token })
    }
    expect(answer.status).toBe(401)
    expect(answer.json.message).toMatch(/user leaver was revoked/)
    // The others are not affected.
    expect((await call(list, { token: secrets.ann!.token })).status).toBe(200)
  })

  it('slows an address after repeated failures, not another address, and lets a valid token through', async () => {
    const list = `${base.v2}/getLayersList`
    const slow = secrets.slow!.token
    // Verified once, so the checks below are not the hash's time.
    expect((await call(list, { token: slow, localAddress: '127.0.0.3' })).status).toBe(200)
    const attacker = '127.0.0.2'
    for (let i = 0; i < 8; i++)
      expect((await call(list, { token: `gat_slow_${'x'.repeat(43)}`, localAddress: attacker })).status).toBe(
        401,
      )
    // 5 free failures, then 100, 200, 400 ms: the next attempt from there waits 800 ms before it is checked.
    const [held, other] = await Promise.all([
      call(list, { token: slow, localAddress: attacker }),
      call(list, { token: slow, localAddress: '127.0.0.3' }),
    ])
    expect(held.status).toBe(200)
    expect(held.ms).toBeGreaterThanOrEqual(780)
    expect(other.status).toBe(200)
    expect(other.ms).toBeLessThan(held.ms)
    expect(other.ms).toBeLessThan(780)
    // The success reset that address.
    const after = await call(list, { token: slow, localAddress: attacker })
    expect(after.status).toBe(200)
    expect(after.ms).toBeLessThan(780)
  })
})
