import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { JobCancelled, WorkerPool } from '../../../../electron/local-service/pool/worker-pool'
import { runVisionJob } from '../../../../electron/local-service/vision/job'

const STREET = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'vision', 'street.jpg')
let dir: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vision-job-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('runVisionJob: serializable in, serializable out', () => {
  it('writes the blurred image to the output path and answers with the boxes', async () => {
    const outputPath = join(dir, 'out.jpg')
    const result = await runVisionJob({ kind: 'vision.blur', inputPath: STREET, outputPath })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.value).toMatchObject({
      format: 'jpeg',
      contentType: 'image/jpeg',
      width: 1280,
      height: 720,
      outputPath,
    })
    expect(result.value.bytes).toBeUndefined()
    expect(result.value.boxes).toHaveLength(2)
    expect((await sharp(outputPath).metadata()).width).toBe(1280)
    // the answer survives a structured clone, as it must to cross a worker boundary
    expect(structuredClone(result)).toEqual(result)
  }, 120_000)

  it.each([
    ['empty.jpg', new Uint8Array(), 'empty-file'],
    ['notes.jpg', new TextEncoder().encode('not a picture at all'), 'not-an-image'],
    ['anim.png', new TextEncoder().encode('GIF89a\x01\x00\x01\x00\x00\x00\x00'), 'unsupported-format'],
  ])(
    'an upload at fault (%s) is an input error naming the problem, not a fault',
    async (name, bytes, problem) => {
      const inputPath = join(dir, name)
      await writeFile(inputPath, bytes)
      const result = await runVisionJob({ kind: 'vision.blur', inputPath })
      expect(result).toMatchObject({ ok: false, error: { kind: 'input', problem } })
    },
  )

  it('a missing input file is a fault of ours (500), not the client’s', async () => {
    const result = await runVisionJob({ kind: 'vision.blur', inputPath: join(dir, 'gone.jpg') })
    expect(result).toMatchObject({ ok: false, error: { kind: 'fault' } })
  })
})

describe('in the worker pool', () => {
  it('runs as the vision.blur job kind in a pool worker, its answer written to the output path', async () => {
    const pool = new WorkerPool({ workers: 1 })
    try {
      const outputPath = join(dir, 'pooled.jpg')
      const phases: string[] = []
      const result = await pool.run(
        'vision.blur',
        { kind: 'vision.blur', inputPath: STREET, outputPath },
        { onProgress: (p) => phases.push(p.phase) },
      )
      expect(result.ok).toBe(true)
      if (!result.ok) return
      expect(result.value.boxes).toHaveLength(2)
      expect(phases).toEqual(['loading models', 'blurring'])
      expect((await sharp(outputPath).metadata()).format).toBe('jpeg')
      expect(pool.stats.lastMemory?.externalBytes).toBeGreaterThan(10_000_000)
    } finally {
      await pool.close()
    }
  }, 120_000)

  it('stops the job when its caller goes away', async () => {
    const pool = new WorkerPool({ workers: 1 })
    try {
      const controller = new AbortController()
      const running = pool.run(
        'vision.blur',
        { kind: 'vision.blur', inputPath: STREET },
        { signal: controller.signal },
      )
      setTimeout(() => controller.abort(), 50)
      await expect(running).rejects.toBeInstanceOf(JobCancelled)
    } finally {
      await pool.close()
    }
  })
})
