import path from 'node:path'
import { describe, expect, it, vi } from 'vitest'

/** Every comparison of a secret's hash (or of today's single token) goes through crypto's timingSafeEqual. */
const compared = vi.hoisted(() => ({ calls: [] as Array<[number, number]> }))
vi.mock('node:crypto', async (original) => {
  const crypto = await original<typeof import('node:crypto')>()
  return {
    ...crypto,
    timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      compared.calls.push([a.byteLength, b.byteLength])
      return crypto.timingSafeEqual(a, b)
    },
  }
})

const { addUser, equalDigests, verifySecret, readUsersFile } =
  await import('../../../../electron/local-service/team/users-file')
const { UserDirectory } = await import('../../../../electron/local-service/team/user-directory')
const { singleSecretCredentials } = await import('../../../../electron/local-service/team/credentials')
const { tempDir } = await import('../helpers')

describe('constant-time comparison', () => {
  it('compares equal-length digests with timingSafeEqual, and never throws on a length mismatch', () => {
    compared.calls.length = 0
    expect(equalDigests(Buffer.alloc(32, 1), Buffer.alloc(32, 1))).toBe(true)
    expect(equalDigests(Buffer.alloc(32, 1), Buffer.alloc(32, 2))).toBe(false)
    expect(compared.calls).toEqual([
      [32, 32],
      [32, 32],
    ])
    expect(equalDigests(Buffer.alloc(32), Buffer.alloc(16))).toBe(false)
  })

  it("checks a user's wrong secret by comparing hashes of equal length in constant time", async () => {
    const file = path.join(await tempDir('geo-users-ts-'), 'users.json')
    const ann = await addUser(file, { name: 'ann' })
    const stored = (await readUsersFile(file)).users[0]!.token
    compared.calls.length = 0
    const wrong = ann.token.slice(0, -1) + (ann.token.endsWith('A') ? 'B' : 'A')
    expect(await verifySecret(wrong, stored)).toBe(false)
    expect(await verifySecret(ann.token, stored)).toBe(true)
    expect(compared.calls).toEqual([
      [32, 32],
      [32, 32],
    ])

    compared.calls.length = 0
    const directory = await UserDirectory.open(file)
    expect(await directory.verify(wrong, 'token')).toEqual({ ok: false, reason: 'wrong' })
    expect(compared.calls).toEqual([[32, 32]])
  })

  it("compares today's single token in constant time too", async () => {
    compared.calls.length = 0
    const credentials = singleSecretCredentials({ token: 'abcdef', licenceKey: 'key123' })
    expect(await credentials.authenticate('abcdeg', 'bearer', '127.0.0.1')).toMatchObject({ status: 401 })
    expect(await credentials.authenticate('key123', 'licence-key', '127.0.0.1')).toMatchObject({ ok: true })
    expect(compared.calls).toEqual([
      [6, 6],
      [6, 6],
    ])
  })
})
