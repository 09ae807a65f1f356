import { threadId } from 'node:worker_threads'
import { serveJobs } from '../../../../electron/local-service/pool/serve-jobs'
import type { JobIo } from '../../../../electron/local-service/pool/job'
import {
  CHUNK_BYTES,
  freshChunkBuffers,
  JsonChunkWriter,
} from '../../../../electron/local-service/engine/json-chunks'

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
    // `n` full chunks of JSON (each part waits a moment, as a cursor's next batch does, so a buffer handed
    // back can arrive); answers how many chunk buffers this thread had to allocate meanwhile.
    'test.chunks': async (job: { n: number }, io: JobIo) => {
      const before = freshChunkBuffers()
      const out = new JsonChunkWriter((bytes) => io.part(200, bytes, false))
      const text = 'x'.repeat(1000)
      for (let i = 0; i < job.n; i++) {
        for (let k = 0; k < CHUNK_BYTES / 1000; k++) out.string(text)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      out.flush()
      io.part(200, new TextEncoder().encode('end'), true)
      return freshChunkBuffers() - before
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
