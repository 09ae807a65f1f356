import { threadId } from 'node:worker_threads'
import { serveJobs } from '../../../../electron/local-service/pool/serve-jobs'
import type { JobIo } from '../../../../electron/local-service/pool/job'

/** A pool worker with job kinds a test controls: waits, parts, failures, memory it claims to hold. */
let held = 0
serveJobs(
  {
    'test.wait': async (job: { ms: number; tag: string }) => {
      await new Promise((resolve) => setTimeout(resolve, job.ms))
      return { tag: job.tag, threadId }
    },
    'test.parts': async (job: { n: number }, io: JobIo) => {
      for (let i = 0; i < job.n; i++) io.part(200, new TextEncoder().encode(`part${i};`), i === job.n - 1)
    },
    'test.progress': async (job: { steps: number }, io: JobIo) => {
      for (let i = 1; i <= job.steps; i++) io.progress({ phase: 'working', done: i, total: job.steps })
      return 'done'
    },
    'test.fail': async () => {
      throw new RangeError('the engine said no')
    },
    'test.hold': async (job: { bytes: number }) => {
      held += job.bytes
      return { threadId }
    },
  },
  () => held,
)
