import { afterEach, describe, expect, it } from 'vitest'
import {
  JobCancelled,
  PoolFull,
  UserLimit,
  WorkerPool,
  type PoolOptions,
  type RunOptions,
} from '../../../../electron/local-service/pool/worker-pool'
import { runAs, type Principal } from '../../../../electron/local-service/team/principal'

const workerUrl = new URL('./test-jobs-worker.ts', import.meta.url)
const pools: WorkerPool[] = []
const LONG = 60_000
const HEAVY = 1e9

const principal = (user: string): Principal => ({ user, groups: 'all', readOnly: false })

/**
 * A pool over the test worker that records the order jobs start in; `run(user, …)` runs a job as that
 * user's request would (inside `runAs`, as the router does).
 */
function pool(options: PoolOptions = {}) {
  const p = new WorkerPool({ ...options, workerUrl })
  pools.push(p)
  const starts: string[] = []
  const controllers = new Map<string, AbortController>()
  const run = (user: string, tag: string, ms: number, options: RunOptions = {}) => {
    const controller = new AbortController()
    controllers.set(tag, controller)
    const go = p.run.bind(p) as unknown as (
      kind: string,
      job: unknown,
      options?: RunOptions,
    ) => Promise<{ tag: string }>
    return runAs(principal(user), null, () =>
      go(
        'test.wait',
        { ms, tag },
        { weight: HEAVY, signal: controller.signal, onStart: () => starts.push(tag), ...options },
      ),
    )
  }
  const abort = (tag: string) => controllers.get(tag)!.abort()
  return { p, run, starts, abort }
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()))
})

describe('WorkerPool between users', () => {
  it('one user’s 20 queued heavy jobs do not starve another’s: it starts when the next worker frees', async () => {
    const { run, starts, abort } = pool({ workers: 2, perUserQueue: 32 })
    const a = Array.from({ length: 20 }, (_, i) => run('a', `a${i}`, i === 0 ? 300 : LONG).catch((e) => e))
    const b = run('b', 'b0', 1)
    expect(starts).toEqual(['a0'])
    await a[0]
    // a0 finished: b0 goes before a's 19 others (one worker takes large jobs: the other is the small lane).
    expect(starts).toEqual(['a0', 'b0'])
    expect((await b).tag).toBe('b0')
    expect(starts).toEqual(['a0', 'b0', 'a1'])
    for (let i = 1; i < 20; i++) abort(`a${i}`)
    for (const outcome of (await Promise.all(a)).slice(1)) expect(outcome).toBeInstanceOf(JobCancelled)
  })

  it('a user holds at most perUserRunning workers while another user waits; alone, all of them', async () => {
    const { p, run, starts, abort } = pool({ workers: 4, reservedForSmall: 0, perUserRunning: 2 })
    const jobs = [
      ...Array.from({ length: 8 }, (_, i) => run('a', `a${i}`, LONG)),
      ...Array.from({ length: 4 }, (_, i) => run('b', `b${i}`, LONG)),
    ].map((j) => j.catch((e: unknown) => e))
    expect(starts).toEqual(['a0', 'a1', 'a2', 'a3'])
    abort('a0')
    expect(starts.at(-1)).toBe('b0')
    // a's turn by rotation, but a still holds 3 workers (more than 2) and b waits: b goes again.
    abort('a1')
    expect(starts.at(-1)).toBe('b1')
    abort('a2')
    // a holds 1 worker now: its turn.
    expect(starts.at(-1)).toBe('a4')
    expect(p.load).toMatchObject({ running: 4, queued: 5 })
    p.close()
    await Promise.all(jobs)
  })

  it('past perUserQueue waiting jobs a user gets UserLimit (429, Retry-After) while another still gets through', async () => {
    const { p, run, abort } = pool({ workers: 1, reservedForSmall: 0, maxQueue: 20 })
    // a0 runs, a1..a16 wait: 16, the default limit.
    const a = Array.from({ length: 17 }, (_, i) => run('a', `a${i}`, LONG).catch((e: unknown) => e))
    const refused = await Promise.race([
      run('a', 'a17', 1).catch((e: unknown) => e),
      new Promise((resolve) => setTimeout(() => resolve('queued'), 500)),
    ])
    expect(refused).toBeInstanceOf(UserLimit)
    expect(refused).toBeInstanceOf(PoolFull)
    const limit = refused as UserLimit
    expect(limit.status).toBe(429)
    expect(limit.retryAfterSeconds).toBeGreaterThanOrEqual(1)
    expect(limit.message).toContain('user "a"')
    expect(limit.message).toContain('16')
    expect(p.load.queued).toBe(16)
    // b is under its own limit: queued, and next when a's running job ends.
    const b = run('b', 'b0', 1)
    abort('a0')
    expect((await b).tag).toBe('b0')
    // The whole queue at its bound is still PoolFull, 503, for anyone.
    const c: Promise<unknown>[] = []
    while (p.load.queued < 20) c.push(run('c', `c${c.length}`, LONG).catch((e: unknown) => e))
    expect(c.length).toBeLessThan(16)
    const full = await run('d', 'd0', 1).catch((e: unknown) => e)
    expect(full).toBeInstanceOf(PoolFull)
    expect(full).not.toBeInstanceOf(UserLimit)
    expect((full as PoolFull).status).toBe(503)
    p.close()
    await Promise.all([...a, ...c])
  })
})
