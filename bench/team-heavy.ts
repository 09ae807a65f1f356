/**
 * The heavy user of `bench/team.ts`, in a process of its own — another analyst's machine: its client work
 * (the TLS and buffering of 200,000-row answers) is not done on the event loop that times the other users'
 * requests. It gets `{ start: { urls, token, caPem, joins, url, body } }` on the IPC channel, runs that many
 * joins at once without pause, each request to the next instance in turn, until `{ stop: true }`; then
 * leaves the joins in flight (the server cancels them; they are not samples), sends its samples
 * (`{ samples }`) and exits. A client answered 429/503 waits its Retry-After.
 */
import { Agent } from 'undici'
import { timedCall } from './team-client'

interface Start {
  urls: Record<string, string>[]
  token: string
  caPem: string
  joins: number
  /** The join's path and query after `mgis_url`, and its body. */
  url: string
  body: string
}

let stopping = false
const samples: Awaited<ReturnType<typeof timedCall>>[] = []
/** Aborted at the stop: the joins in flight leave (the server cancels them), so the load ends with its phase. */
const leave = new AbortController()

async function run(start: Start): Promise<void> {
  const agent = new Agent({ connect: { ca: start.caPem }, connections: 64 })
  let turn = 0
  const one = async () => {
    while (!stopping) {
      const urls = start.urls[turn++ % start.urls.length]!
      const sample = await timedCall(agent, `${urls.mgis_url}${start.url}`, start.token, {
        method: 'POST',
        body: start.body,
        signal: leave.signal,
      })
      if (!stopping) samples.push(sample)
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
    leave.abort()
    void (running ?? Promise.resolve()).then(() => {
      process.send!({ samples }, () => process.exit(0))
    })
  }
})
