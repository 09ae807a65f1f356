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

/**
 * Works through `gate` that run until released (`works`), each weighed as given when the gate asks:
 * the order they started in, and which were weighed.
 */
function weighedWorks(gate: FairGate) {
  const starts: string[] = []
  const weighed: string[] = []
  const works = new Map<string, ReturnType<typeof held>>()
  const enter = (user: string, tag: string, weight: number) => {
    const w = held()
    works.set(tag, w)
    return as(user, () =>
      gate.run(
        async () => {
          starts.push(tag)
          await w.done
          return tag
        },
        undefined,
        async () => {
          weighed.push(tag)
          return weight
        },
      ),
    )
  }
  return { starts, weighed, works, enter }
}

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

  it('keeps its last place for small works, and weighs a work only when the other places are taken', async () => {
    const gate = new FairGate({
      places: 3,
      maxQueue: 64,
      perUserQueue: 32,
      perUserRunning: 1,
      reservedForSmall: 1,
      smallWeight: 100,
    })
    const { starts, weighed, works, enter } = weighedWorks(gate)
    // A heavy user's long works take the two places open to them, without being weighed; the next waits.
    const heavy = [0, 1, 2].map((i) => enter('heavy', `h${i}`, 1e9))
    await tick()
    expect(starts).toEqual(['h0', 'h1'])
    expect(weighed).toEqual(['h2'])
    // A short work arriving now is weighed, and takes the place kept for small works at once.
    const small = enter('analyst', 's0', 10)
    await tick()
    expect(starts).toEqual(['h0', 'h1', 's0'])
    expect(weighed).toEqual(['h2', 's0'])
    works.get('s0')!.release()
    expect(await small).toBe('s0')
    // The kept place stays free for the next small work: the long one waits for a place of its own.
    await tick()
    expect(starts).toEqual(['h0', 'h1', 's0'])
    // A work weighed by no one (a failing weigh) counts as large.
    const failing = as('analyst', () =>
      gate.run(
        async () => {
          starts.push('f0')
          return 'f0'
        },
        undefined,
        () => Promise.reject(new Error('no statistics')),
      ),
    )
    await tick()
    expect(starts).not.toContain('f0')
    works.get('h0')!.release()
    await heavy[0]
    await tick()
    await tick()
    // The freed place goes to the other user first (in turn across users), then, freed again, to h2.
    expect(await failing).toBe('f0')
    await tick()
    expect(starts).toEqual(['h0', 'h1', 's0', 'f0', 'h2'])
    works.get('h1')!.release()
    works.get('h2')!.release()
    expect(await Promise.all(heavy)).toEqual(['h0', 'h1', 'h2'])
  })

  it('lets one user run only `perUserLarge` large works at once, while their small ones and others’ large ones go in', async () => {
    const gate = new FairGate({
      places: 3,
      maxQueue: 64,
      perUserQueue: 32,
      perUserRunning: 3,
      reservedForSmall: 1,
      smallWeight: 100,
      perUserLarge: 1,
    })
    const { starts, works, enter } = weighedWorks(gate)
    const heavy = [enter('heavy', 'h0', 1e9), enter('heavy', 'h1', 1e9)]
    await tick()
    expect(starts).toEqual(['h0'])
    const mine = enter('heavy', 's0', 10)
    const other = enter('other', 'o0', 1e9)
    await tick()
    // Both go in at once (every work is weighed where users' large works are limited); h1 still waits.
    expect(starts).toEqual(['h0', 's0', 'o0'])
    for (const tag of ['s0', 'o0', 'h0']) works.get(tag)!.release()
    await Promise.all([mine, other, heavy[0]])
    await tick()
    expect(starts).toEqual(['h0', 's0', 'o0', 'h1'])
    works.get('h1')!.release()
    expect(await heavy[1]).toBe('h1')
    expect(gate.load).toEqual({ running: 0, queued: 0 })
  })
})
