import { afterEach, describe, expect, it } from 'vitest'
import { CHUNK_BYTES } from '../../../../electron/local-service/engine/json-chunks'
import {
  JobCancelled,
  JobFailed,
  PoolFull,
  WorkerPool,
  type PoolOptions,
} from '../../../../electron/local-service/pool/worker-pool'

const workerUrl = new URL('./test-jobs-worker.ts', import.meta.url)
const pools: WorkerPool[] = []

/** A pool over the test worker; its job kinds are not the app's, so calls are typed loosely here. */
function pool(options: PoolOptions = {}) {
  const p = new WorkerPool({ ...options, workerUrl })
  pools.push(p)
  const run = p.run.bind(p) as unknown as (
    kind: string,
    job: unknown,
    options?: Parameters<WorkerPool['run']>[2],
  ) => Promise<{ tag: string; threadId: number } & Record<string, unknown>>
  return { p, run }
}

const LONG = 60_000
const settled = (promise: Promise<unknown>) => {
  let done = false
  void promise.then(
    () => (done = true),
    () => (done = true),
  )
  return () => done
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()))
})

describe('WorkerPool', () => {
  it('runs a job of a registered kind in a worker thread and returns its result', async () => {
    const { run } = pool()
    const result = await run('test.wait', { ms: 1, tag: 'a' })
    expect(result.tag).toBe('a')
    expect(result.threadId).toBeGreaterThan(0)
  })

  it('streams parts in order and settles after the last one; forwards progress', async () => {
    const { run } = pool()
    const parts: string[] = []
    await run(
      'test.parts',
      { n: 3 },
      { onPart: (p) => parts.push(new TextDecoder().decode(p.bytes) + p.last) },
    )
    expect(parts).toEqual(['part0;false', 'part1;false', 'part2;true'])
    const seen: number[] = []
    await run('test.progress', { steps: 3 }, { onProgress: (p) => seen.push(p.done ?? -1) })
    expect(seen).toEqual([1, 2, 3])
  })

  it('a part written is handed back: the worker streams a long answer in the same few buffers', async () => {
    const { run } = pool()
    let bytes = 0
    let fullParts = 0
    const reused = await run(
      'test.chunks',
      { n: 12 },
      {
        onPart: (p) => {
          bytes += p.bytes.byteLength
          const full = p.bytes.buffer.byteLength === CHUNK_BYTES
          if (full) fullParts++
          p.written()
          // A full chunk handed back is no longer readable here (the worker writes its next chunk into it).
          if (full) expect(p.bytes.byteLength).toBe(0)
        },
      },
    )
    expect(bytes).toBeGreaterThan(12 * 250_000)
    expect(fullParts).toBeGreaterThanOrEqual(11)
    expect(reused).toBeLessThanOrEqual(2)
    // Parts not handed back (a caller that never says they were written) cost a buffer each.
    const kept: Uint8Array[] = []
    expect(await run('test.chunks', { n: 12 }, { onPart: (p) => kept.push(p.bytes) })).toBeGreaterThanOrEqual(
      10,
    )
    expect(kept[0]!.byteLength).toBeGreaterThan(250_000)
  })

  it('rejects with the engine’s error name and message, and an unknown kind by name', async () => {
    const { run } = pool()
    const failure = await run('test.fail', {}).catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(JobFailed)
    expect((failure as JobFailed).errorName).toBe('RangeError')
    expect((failure as JobFailed).message).toBe('the engine said no')
    await expect(run('nope.missing', {})).rejects.toThrow('no job kind "nope.missing"')
  })

  it('a small job never waits behind a large one: one worker is kept for small jobs', async () => {
    const { p, run } = pool({ workers: 2, smallWeight: 10 })
    const controller = new AbortController()
    const large = run('test.wait', { ms: LONG, tag: 'large' }, { weight: 1_000, signal: controller.signal })
    const largeDone = settled(large)
    const secondLarge = run('test.wait', { ms: 1, tag: 'large2' }, { weight: 1_000 })
    const secondDone = settled(secondLarge)
    const small = await run('test.wait', { ms: 1, tag: 'small' }, { weight: 1 })
    expect(small.tag).toBe('small')
    expect(largeDone()).toBe(false)
    // The second large job waits for the first: the other worker is the small jobs' lane.
    expect(secondDone()).toBe(false)
    expect(p.load.queued).toBe(1)
    controller.abort()
    await expect(large).rejects.toBeInstanceOf(JobCancelled)
    expect((await secondLarge).tag).toBe('large2')
  })

  it('with one worker, a small job gets a worker of its own while a large one runs', async () => {
    const { run } = pool({ workers: 1, smallWeight: 10 })
    const controller = new AbortController()
    const large = run('test.wait', { ms: LONG, tag: 'large' }, { weight: 1_000, signal: controller.signal })
    const largeDone = settled(large)
    expect((await run('test.wait', { ms: 1, tag: 'small' }, { weight: 1 })).tag).toBe('small')
    expect(largeDone()).toBe(false)
    controller.abort()
    await expect(large).rejects.toBeInstanceOf(JobCancelled)
  })

  it('answers PoolFull with a Retry-After estimate when the queue is at its bound', async () => {
    const { run } = pool({ workers: 1, maxQueue: 2, reservedForSmall: 0 })
    const controller = new AbortController()
    const jobs = [0, 1, 2].map((i) =>
      run('test.wait', { ms: LONG, tag: String(i) }, { weight: 1e9, signal: controller.signal }).catch(
        (e) => e,
      ),
    )
    const full = await run('test.wait', { ms: 1, tag: 'x' }, { weight: 1e9 }).catch((e: unknown) => e)
    expect(full).toBeInstanceOf(PoolFull)
    expect((full as PoolFull).retryAfterSeconds).toBeGreaterThanOrEqual(1)
    controller.abort()
    for (const job of await Promise.all(jobs)) expect(job).toBeInstanceOf(JobCancelled)
  })

  it('an abort stops a running job (its worker is replaced) and removes a queued one', async () => {
    const { p, run } = pool({ workers: 1, reservedForSmall: 0 })
    const running = new AbortController()
    const queued = new AbortController()
    const first = run('test.wait', { ms: LONG, tag: 'first' }, { weight: 1e9, signal: running.signal })
    const second = run('test.wait', { ms: LONG, tag: 'second' }, { weight: 1e9, signal: queued.signal })
    queued.abort()
    await expect(second).rejects.toBeInstanceOf(JobCancelled)
    expect(p.load.queued).toBe(0)
    running.abort()
    await expect(first).rejects.toBeInstanceOf(JobCancelled)
    const after = await run('test.wait', { ms: 1, tag: 'after' })
    expect(after.tag).toBe('after')
    expect(p.stats.spawned).toBe(2)
  })

  it('retires a worker whose memory grew past the budget after its job', async () => {
    const { p, run } = pool({ workers: 1, maxWorkerBytes: 512 * 1024 * 1024 })
    const first = await run('test.hold', { bytes: 1024 * 1024 * 1024 })
    expect(p.stats.retired).toBe(1)
    const second = await run('test.hold', { bytes: 1 })
    expect(second.threadId).not.toBe(first.threadId)
  })

  it('reports each stopped worker’s thread id once it has exited, and close waits for that work', async () => {
    const exited: number[] = []
    let cleaning = 0
    const { p, run } = pool({
      workers: 1,
      reservedForSmall: 0,
      onWorkerExit: async (threadId) => {
        cleaning++
        // Exit work that takes a while (removing what a job left half-written).
        await new Promise((resolve) => setTimeout(resolve, 100))
        exited.push(threadId)
        cleaning--
      },
    })
    // A job whose caller goes away: its worker is terminated, then reported.
    const controller = new AbortController()
    const cancelled = run('test.wait', { ms: LONG, tag: 'a' }, { weight: 1e9, signal: controller.signal })
    const cancelledThread = (p as unknown as { slots: Array<{ worker: { threadId: number } }> }).slots[0]!
      .worker.threadId
    controller.abort()
    await expect(cancelled).rejects.toBeInstanceOf(JobCancelled)
    const next = await run('test.wait', { ms: 1, tag: 'b' })
    expect(next.threadId).not.toBe(cancelledThread)
    // The retired thread has been reported (or is being); the running one is reported by close, awaited.
    await p.close()
    expect(cleaning).toBe(0)
    expect(exited.sort()).toEqual([cancelledThread, next.threadId].sort())
  })

  it('close rejects what is waiting and running', async () => {
    const { p, run } = pool({ workers: 1, reservedForSmall: 0 })
    const a = run('test.wait', { ms: LONG, tag: 'a' }, { weight: 1e9 }).catch((e: Error) => e)
    const b = run('test.wait', { ms: LONG, tag: 'b' }, { weight: 1e9 }).catch((e: Error) => e)
    await p.close()
    expect((await a).message).toMatch('stopping')
    expect((await b).message).toMatch('stopping')
    await expect(run('test.wait', { ms: 1, tag: 'c' })).rejects.toThrow('closed')
  })
})
