/**
 * The heavy user of `bench/team.ts`, in a process of its own — another analyst's machine: its client work
 * (the TLS and buffering of 200,000-row answers) is not done on the event loop that times the other users'
 * requests. It gets `{ start: { urls, token, caPem, joins, url, body } }` on the IPC channel, runs that many
 * joins at once without pause, each request to the next instance in turn, until `{ stop: true }`; then
 * sends its samples (`{ samples }`) and exits. A client answered 429/503 waits its Retry-After.
 */
import { Agent, fetch } from 'undici'

interface Start {
  urls: Record<string, string>[]
  token: string
  caPem: string
  joins: number
  /** The join's path and query after `mgis_url`, and its body. */
  url: string
  body: string
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
let stopping = false
const samples: { status: number; ms: number; retryAfter: boolean }[] = []

async function run(start: Start): Promise<void> {
  const agent = new Agent({ connect: { ca: start.caPem }, connections: 64 })
  let turn = 0
  const one = async () => {
    while (!stopping) {
      const urls = start.urls[turn++ % start.urls.length]!
      const t0 = performance.now()
      let status = -1
      let retryAfter = false
      try {
        const response = await fetch(`${urls.mgis_url}${start.url}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${start.token}`, 'content-type': 'application/json' },
          body: start.body,
          dispatcher: agent,
        })
        await response.arrayBuffer()
        status = response.status
        retryAfter = response.headers.has('retry-after')
        if ((status === 429 || status === 503) && retryAfter)
          await sleep(Math.min(5, Number(response.headers.get('retry-after')) || 1) * 1000)
      } catch {
        status = -1
      }
      samples.push({ status, ms: performance.now() - t0, retryAfter })
    }
  }
  await Promise.all(Array.from({ length: start.joins }, one))
  await agent.close()
}

let running: Promise<void> | undefined
process.on('message', (m: { start?: Start; stop?: boolean }) => {
  if (m.start) running = run(m.start)
  if (m.stop) {
    stopping = true
    void (running ?? Promise.resolve()).then(() => {
      process.send!({ samples }, () => process.exit(0))
    })
  }
})
