import { describe, expect, it } from 'vitest'
import { FairGate } from '../../../../electron/local-service/pool/fair-gate'
import { JobCancelled, PoolFull, UserLimit } from '../../../../electron/local-service/pool/errors'
import { runAs } from '../../../../electron/local-service/team/principal'

/** Work that runs until its test lets it end. */
function held() {
  let release!: () => void
  const done = new Promise<void>((resolve) => (release = resolve))
  return { done, release }
}

const as = <T>(user: string, work: () => T): T => runAs({ user, groups: 'all', readOnly: false }, null, work)
const tick = () => new Promise((resolve) => setImmediate(resolve))

describe('FairGate', () => {
  it('runs at most `places` at once and gives the next place to the other user, not to the one with many waiting', async () => {
    const gate = new FairGate({ places: 2, maxQueue: 64, perUserQueue: 32, perUserRunning: 2 })
    const starts: string[] = []
    const works = new Map<string, ReturnType<typeof held>>()
    const enter = (user: string, tag: string) => {
      const w = held()
      works.set(tag, w)
      return as(user, () =>
        gate.run(async () => {
          starts.push(tag)
          await w.done
          return tag
        }),
      )
    }
    const a = Array.from({ length: 10 }, (_, i) => enter('a', `a${i}`))
    await tick()
    expect(starts).toEqual(['a0', 'a1'])
    const b = enter('b', 'b0')
    await tick()
    expect(gate.load).toEqual({ running: 2, queued: 9 })
    works.get('a0')!.release()
    await a[0]
    await tick()
    expect(starts).toEqual(['a0', 'a1', 'b0'])
    works.get('b0')!.release()
    expect(await b).toBe('b0')
    for (let i = 1; i < 10; i++) {
      await tick()
      works.get(`a${i}`)!.release()
    }
    expect(await Promise.all(a)).toEqual(Array.from({ length: 10 }, (_, i) => `a${i}`))
  })

  it('refuses a user past their waiting limit (UserLimit, 429), the whole queue past its bound (PoolFull, 503)', async () => {
    const gate = new FairGate({ places: 1, maxQueue: 3, perUserQueue: 2, perUserRunning: 1 })
    const w = held()
    const runs = [0, 1, 2].map(() => as('a', () => gate.run(() => w.done)))
    await tick()
    const limited = await Promise.race([
      as('a', () => gate.run(() => w.done)).catch((e: unknown) => e),
      new Promise((resolve) => setTimeout(() => resolve('queued'), 500)),
    ])
    expect(limited).toBeInstanceOf(UserLimit)
    expect((limited as UserLimit).status).toBe(429)
    expect((limited as UserLimit).message).toContain('user "a"')
    const other = as('b', () => gate.run(async () => 'b'))
    const full = await as('c', () => gate.run(() => w.done)).catch((e: unknown) => e)
    expect(full).toBeInstanceOf(PoolFull)
    expect((full as PoolFull).status).toBe(503)
    expect((full as PoolFull).retryAfterSeconds).toBeGreaterThanOrEqual(1)
    w.release()
    await Promise.all(runs)
    expect(await other).toBe('b')
  })

  it('a caller that leaves while waiting is taken out of the queue; close refuses what waits', async () => {
    const gate = new FairGate({ places: 1, maxQueue: 8, perUserQueue: 8, perUserRunning: 1 })
    const w = held()
    const first = gate.run(() => w.done)
    const leave = new AbortController()
    const left = gate.run(async () => 'ran', leave.signal).catch((e: unknown) => e)
    const waiting = gate.run(async () => 'ran').catch((e: unknown) => e)
    await tick()
    leave.abort()
    expect(await left).toBeInstanceOf(JobCancelled)
    expect(gate.load).toEqual({ running: 1, queued: 1 })
    gate.close()
    expect(((await waiting) as Error).message).toMatch('stopping')
    w.release()
    await first
  })
})
