import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runVisionJob, type VisionJobResult } from '../../../../electron/local-service/vision/job'

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

describe('the worker entry', () => {
  it('runs a job in a worker thread and transfers the image bytes back', async () => {
    const ts = new URL('../../../../electron/local-service/vision/worker.ts', import.meta.url).href
    const boot = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(ts)}) })`
    const worker = new Worker(boot, { eval: true, workerData: { threads: 1 } })
    try {
      const answer = await new Promise<{ id: number; result: VisionJobResult }>((resolve, reject) => {
        worker.once('message', resolve)
        worker.once('error', reject)
        worker.postMessage({ id: 7, job: { kind: 'vision.blur', inputPath: STREET } })
      })
      expect(answer.id).toBe(7)
      expect(answer.result.ok).toBe(true)
      if (!answer.result.ok) return
      const bytes = answer.result.value.bytes as Uint8Array
      expect((await sharp(bytes).metadata()).format).toBe('jpeg')
      expect(bytes.byteLength).toBeGreaterThan((await readFile(STREET)).byteLength / 4)
    } finally {
      await worker.terminate()
    }
  }, 120_000)
})
