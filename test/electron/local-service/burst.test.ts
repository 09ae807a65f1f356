import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { feature, runService, square, TOKEN, type Running } from './helpers'

/**
 * Cheap operations are answered under a burst the machine can answer, and while the worker pool is full:
 * the pool's bound (503 + Retry-After) is for heavy jobs only.
 */

function get(
  agent: http.Agent,
  port: number,
  path: string,
): Promise<{ status: number; body: string; retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port, path, agent, headers: { authorization: `Bearer ${TOKEN}` } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        )
        res.on('error', reject)
      },
    )
    req.on('error', reject)
  })
}

const many = Array.from({ length: 6000 }, (_, i) =>
  feature({ type: 'Point', coordinates: [i / 100, 1] }, { v: i }),
)
/** A join of 6,000 × 6,000 rows on `<>`: seconds of work for the one worker. */
const heavy = {
  queryType: 'basic',
  datasetSource: 'many',
  datasetRef: 'many2',
  sourceProperty: 'v',
  refProperty: 'v',
  operator: '<>',
}

describe('a burst of cheap requests', () => {
  let svc: Running
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 })
  beforeAll(async () => {
    svc = await runService(
      { many, many2: many, small: [feature(square(0, 0, 1, 1), { name: 'a' })] },
      // One worker and room for one job waiting: two heavy jobs fill the pool. Every join is heavy here.
      { pool: { workers: 1, maxQueue: 1, smallWeight: 0 } },
    )
  })
  afterAll(async () => {
    agent.destroy()
    await svc.stop()
  })

  const layerNames = (body: string) =>
    (JSON.parse(body) as { data: Array<{ layername: string }> }).data.map((d) => d.layername)

  it('1,000 concurrent dataset lists all answer 200 with every dataset', async () => {
    const answers = await Promise.all(
      Array.from({ length: 1000 }, () => get(agent, svc.service.port, '/mgis/v2/getLayersList')),
    )
    const statuses: Record<number, number> = {}
    for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1
    expect(statuses).toEqual({ 200: 1000 })
    for (const a of answers) expect(layerNames(a.body)).toEqual(['many', 'many2', 'small'])
  }, 60_000)

  it('while heavy jobs fill the pool (a third join is refused 503), lists still answer 200', async () => {
    const clients = [new AbortController(), new AbortController()]
    const running = clients.map((c) =>
      svc.join(heavy, undefined, { signal: c.signal }).catch((e: Error) => e),
    )
    try {
      // Both taken: one running, one waiting; the pool's bound refuses a third heavy job.
      let refused: Awaited<ReturnType<Running['join']>> | undefined
      const deadline = Date.now() + 20_000
      while (Date.now() < deadline) {
        refused = await svc.join(heavy)
        if (refused.status === 503) break
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      expect(refused?.status).toBe(503)
      expect(svc.service.poolStats().load).toMatchObject({ running: 1, queued: 1 })
      const lists = await Promise.all(
        Array.from({ length: 200 }, () => get(agent, svc.service.port, '/mgis/v2/getLayersList')),
      )
      expect(lists.map((l) => l.status)).toEqual(Array.from({ length: 200 }, () => 200))
      expect(svc.service.poolStats().load).toMatchObject({ running: 1, queued: 1 })
    } finally {
      for (const c of clients) c.abort()
      await Promise.all(running)
    }
  }, 60_000)
})
