import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { sendJson } from '../../../../electron/local-service/http-util'
import { busyError } from '../../../../electron/local-service/pool/busy-error'
import { PoolFull, WorkerPool } from '../../../../electron/local-service/pool/worker-pool'
import { answerError } from '../../../../electron/local-service/router'
import { runAs } from '../../../../electron/local-service/team/principal'

const workerUrl = new URL('./test-jobs-worker.ts', import.meta.url)
const LONG = 60_000

let closeAll: (() => Promise<void>) | undefined
afterEach(async () => {
  await closeAll?.()
  closeAll = undefined
})

/**
 * A real HTTP server on 127.0.0.1 whose one route runs a pool job as the user named by `x-user` (as the
 * router does once it has authenticated the caller) and answers failures the way the service's routes do:
 * a busy pool through `busyError`, everything through the router's `answerError`.
 */
async function serve(pool: WorkerPool): Promise<string> {
  const server: Server = createServer((req, res) => {
    const user = String(req.headers['x-user'])
    const ms = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('ms'))
    const controller = new AbortController()
    res.on('close', () => controller.abort())
    void runAs({ user, groups: 'all', readOnly: false }, req, async () => {
      try {
        const run = pool.run.bind(pool) as unknown as (k: string, j: unknown, o: object) => Promise<unknown>
        await run('test.wait', { ms, tag: user }, { weight: 1e9, signal: controller.signal })
        sendJson(res, 200, { code: '200', success: true })
      } catch (error) {
        answerError(req, res, error instanceof PoolFull ? busyError(error) : error)
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  closeAll = async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    await pool.close()
  }
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

describe('a busy pool through HTTP', () => {
  it('answers 429 with Retry-After for a user past their limit, 503 when the whole queue is full', async () => {
    const pool = new WorkerPool({ workerUrl, workers: 1, reservedForSmall: 0, perUserQueue: 2, maxQueue: 4 })
    const base = await serve(pool)
    const call = (user: string, ms: number, signal?: AbortSignal) =>
      fetch(`${base}/job?ms=${ms}`, { headers: { 'x-user': user }, signal })
    const hold = new AbortController()
    // alice: one running, two waiting (her limit).
    const alice = [0, 1, 2].map(() => call('alice', LONG, hold.signal).catch(() => undefined))
    while (pool.load.queued < 2) await new Promise((resolve) => setTimeout(resolve, 10))
    const limited = await call('alice', 1, AbortSignal.timeout(3000))
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    const body = (await limited.json()) as Record<string, unknown>
    expect(body).toMatchObject({ code: '429', success: false })
    expect(body.message).toMatch(/user "alice".*perUserQueue 2/)
    // bob is under his own limit: his jobs queue (two of them fill the queue's 4 places).
    const bob = [0, 1].map(() => call('bob', LONG, hold.signal).catch(() => undefined))
    while (pool.load.queued < 4) await new Promise((resolve) => setTimeout(resolve, 10))
    const full = await call('carol', 1, AbortSignal.timeout(3000))
    expect(full.status).toBe(503)
    expect(Number(full.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(await full.json()).toMatchObject({ code: '503', success: false })
    hold.abort()
    await Promise.all([...alice, ...bob])
  })
})
