import { rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { FailureBackoff } from '../../../../electron/local-service/team/backoff'
import { usersFileCredentials } from '../../../../electron/local-service/team/credentials'
import { UserDirectory } from '../../../../electron/local-service/team/user-directory'
import {
  addUser,
  formatSecret,
  parseGroups,
  parseSecret,
  revokeUser,
  UsersFileError,
} from '../../../../electron/local-service/team/users-file'
import { tempDir } from '../helpers'

describe('secrets that name their user', () => {
  it('reads back the kind and name of a secret, also for names with _ . -', () => {
    const secret = 'A'.repeat(43)
    for (const name of ['ann', 'a_b', 'x.y-z', '_', 'n'.repeat(64)]) {
      expect(parseSecret(formatSecret('token', name, secret))).toEqual({ kind: 'token', name, secret })
      expect(parseSecret(formatSecret('licence-key', name, secret))?.kind).toBe('licence-key')
    }
    for (const bad of [
      '',
      'gat_',
      `gat__${secret}`,
      `gat_ann_${secret}x`,
      `gat_a b_${secret}`,
      `xx_ann_${secret}`,
    ])
      expect(parseSecret(bad), bad).toBeUndefined()
  })

  it('refuses a bad user name or group with a message naming it', async () => {
    const file = path.join(await tempDir('geo-users-unit-'), 'users.json')
    await expect(addUser(file, { name: 'with space' })).rejects.toThrow(
      /user name "with space": a user name is 1 to 64/,
    )
    await expect(addUser(file, { name: 'n'.repeat(65) })).rejects.toThrow(UsersFileError)
    expect(() => parseGroups('gis,maps')).toThrow(/"maps" is not a group; the groups are places, routing/)
    expect(parseGroups('gis, places')).toEqual(['places', 'gis'])
    expect(parseGroups(undefined)).toEqual(['places', 'routing', 'gis', 'telematics', 'vision'])
  })
})

describe('the users of a running server', () => {
  it('keeps the last good users when the file becomes unreadable, says so once without a secret, and recovers', async () => {
    const file = path.join(await tempDir('geo-users-unit-'), 'users.json')
    const ann = await addUser(file, { name: 'ann' })
    const lines: string[] = []
    let clock = 0
    const directory = await UserDirectory.open(file, { log: (l) => lines.push(l), now: () => clock })
    expect((await directory.verify(ann.token, 'token')).ok).toBe(true)

    await writeFile(file, '{ not json')
    clock += 600
    expect((await directory.verify(ann.token, 'token')).ok).toBe(true)
    clock += 600
    await directory.verify(ann.licenceKey, 'licence-key')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/users file .*users\.json is not valid JSON; keeping the 1 users read before/)
    expect(lines[0]).not.toContain(ann.token)

    await rm(file)
    clock += 600
    expect((await directory.verify(ann.token, 'token')).ok).toBe(true)
    expect(lines[1]).toMatch(/does not exist; keeping the 1 users/)

    // Written again (a new user, ann gone): the new state counts from the next look.
    const bob = await addUser(file, { name: 'bob' })
    clock += 600
    expect((await directory.verify(bob.token, 'token')).ok).toBe(true)
    expect(await directory.verify(ann.token, 'token')).toEqual({ ok: false, reason: 'wrong' })
  })

  it('looks at the file at most every half second, and sees a revocation at the next look', async () => {
    const file = path.join(await tempDir('geo-users-unit-'), 'users.json')
    const ann = await addUser(file, { name: 'ann' })
    let clock = 0
    const directory = await UserDirectory.open(file, { now: () => clock })
    await revokeUser(file, 'ann')
    clock += 100
    expect((await directory.verify(ann.token, 'token')).ok).toBe(true)
    clock += 500
    expect(await directory.verify(ann.token, 'token')).toMatchObject({ ok: false, reason: 'revoked' })
  })

  it('refuses a token presented as a licence key and the other way round', async () => {
    const file = path.join(await tempDir('geo-users-unit-'), 'users.json')
    const ann = await addUser(file, { name: 'ann', groups: ['gis'], readOnly: true })
    const credentials = usersFileCredentials(await UserDirectory.open(file))
    expect(await credentials.authenticate(ann.token, 'bearer', '127.0.0.1')).toEqual({
      ok: true,
      principal: { user: 'ann', groups: ['gis'], readOnly: true },
    })
    expect(await credentials.authenticate(ann.licenceKey, 'bearer', '127.0.0.1')).toMatchObject({
      status: 401,
    })
    expect(await credentials.authenticate(ann.token, 'licence-key', '127.0.0.1')).toMatchObject({
      status: 401,
    })
  })
})

describe('backoff of an address', () => {
  function backoff(options: { maxAddresses?: number } = {}) {
    let clock = 0
    const b = new FailureBackoff({ now: () => clock, ...options })
    return { b, advance: (ms: number) => (clock += ms) }
  }

  it('lets 5 failures through, then doubles the wait up to 5 s; a success resets', () => {
    const { b } = backoff()
    const waits: number[] = []
    for (let i = 0; i < 12; i++) {
      waits.push(b.delayFor('a'))
      b.failed('a')
    }
    expect(waits).toEqual([0, 0, 0, 0, 0, 100, 200, 400, 800, 1600, 3200, 5000])
    expect(b.delayFor('b')).toBe(0)
    b.succeeded('a')
    expect(b.delayFor('a')).toBe(0)
  })

  it('forgets failures after the window, and bounds the addresses it remembers', () => {
    const { b, advance } = backoff({ maxAddresses: 3 })
    for (let i = 0; i < 6; i++) b.failed('a')
    expect(b.delayFor('a')).toBe(200)
    advance(16 * 60_000)
    expect(b.delayFor('a')).toBe(0)
    for (let i = 0; i < 1000; i++) b.failed(`10.0.${i >> 8}.${i & 255}`)
    expect(b.size).toBe(3)
  })
})
