import { readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createCore } from '../../../../electron/core/app-core'
import { MemorySecretStore } from '../../../../electron/core/secrets/memory-secret-store'
import { blurredName } from '../../../../electron/contract/vision/blur-plates'
import { planBlurJobs } from '../../../../electron/core/vision/blur-files'
import { FakeProvider, fakeUrls } from '../../../support/fake-provider'
import { useTempDirs } from '../../../support/temp-dir'

const tempDir = useTempDirs()
const JPEG_IN = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])
const JPEG_OUT = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 7, 7, 7])
let fake: FakeProvider

beforeEach(async () => {
  fake = await new FakeProvider().start()
})
afterEach(() => fake.stop())

/** A core whose active profile is a "cloud" (the fake provider), with a vision token. */
async function cloudCore() {
  const core = await createCore({
    configDir: tempDir(),
    dataDir: tempDir(),
    host: 'web',
    version: '0',
    secretStore: new MemorySecretStore(),
  })
  await core.call('settings.saveProfile', { name: 'Cloud', urls: fakeUrls(fake.base) })
  await core.call('settings.chooseProfile', { name: 'Cloud' })
  await core.call('secrets.set', { name: 'token.vision', value: 'vision-token' })
  return core
}

describe('vision.blur', () => {
  it('sends the image to the active profile and answers the blurred bytes, boxes when listed', async () => {
    fake.on('/aiml/license_plate_blur_pano', {
      status: 200,
      body: JPEG_OUT,
      headers: { 'content-type': 'image/jpeg', 'x-blurred-boxes': '[{"x":1,"y":2,"w":3,"h":4}]' },
    })
    const core = await cloudCore()
    const r = await core.call('vision.blur', {
      fileName: 'street.jpg',
      imageBase64: JPEG_IN.toString('base64'),
    })
    expect(r).toEqual({
      ok: true,
      value: {
        contentType: 'image/jpeg',
        imageBase64: JPEG_OUT.toString('base64'),
        boxes: [{ x: 1, y: 2, w: 3, h: 4 }],
      },
    })
    expect(fake.received[0]?.headers.authorization).toBe('Bearer vision-token')
  })

  it('a cloud that lists no boxes: boxes is null', async () => {
    fake.on('/aiml/license_plate_blur_pano', {
      status: 200,
      body: JPEG_OUT,
      headers: { 'content-type': 'image/jpeg' },
    })
    const r = await (
      await cloudCore()
    ).invoke('vision.blur', { fileName: 'a.jpg', imageBase64: JPEG_IN.toString('base64') })
    expect(r.ok && r.value.boxes).toBeNull()
  })

  it('passes on the service’s 400 as a validation failure with its message', async () => {
    fake.on('/aiml/license_plate_blur_pano', {
      status: 400,
      json: { code: '400', success: false, message: 'the image is corrupt or truncated' },
    })
    const r = await (
      await cloudCore()
    ).call('vision.blur', { fileName: 'a.jpg', imageBase64: JPEG_IN.toString('base64') })
    expect(r).toMatchObject({ ok: false, error: { failureClass: 'validation' } })
    expect(JSON.stringify(r)).toContain('corrupt or truncated')
  })
})

describe('vision.blurFile', () => {
  it('writes the blurred image to the output path', async () => {
    fake.on('/aiml/license_plate_blur_pano', {
      status: 200,
      body: JPEG_OUT,
      headers: { 'content-type': 'image/jpeg' },
    })
    const dir = tempDir()
    const input = path.join(dir, 'in.jpg')
    await writeFile(input, JPEG_IN)
    const r = await (
      await cloudCore()
    ).call('vision.blurFile', { inputPath: input, outputPath: path.join(dir, 'out.jpg') })
    expect(r).toMatchObject({
      ok: true,
      value: { outputPath: path.join(dir, 'out.jpg'), contentType: 'image/jpeg' },
    })
    expect(await readFile(path.join(dir, 'out.jpg'))).toEqual(JPEG_OUT)
  })

  it('never overwrites without being asked, and never writes over its input', async () => {
    const dir = tempDir()
    const input = path.join(dir, 'in.jpg')
    const existing = path.join(dir, 'out.jpg')
    await writeFile(input, JPEG_IN)
    await writeFile(existing, 'keep me')
    const core = await cloudCore()
    const r = await core.call('vision.blurFile', { inputPath: input, outputPath: existing })
    expect(r).toMatchObject({ ok: false, error: { failureClass: 'conflict', field: 'outputPath' } })
    expect(await readFile(existing, 'utf8')).toBe('keep me')
    expect(
      await core.call('vision.blurFile', { inputPath: input, outputPath: input, overwrite: true }),
    ).toMatchObject({
      ok: false,
      error: { failureClass: 'validation' },
    })
    expect(fake.received).toHaveLength(0)
  })
})

describe('batch planning', () => {
  it('names an output beside its input with a suffix', () => {
    expect(blurredName('/photos/street.jpg')).toBe('street-blurred.jpg')
    expect(blurredName('pano.final.PNG')).toBe('pano.final-blurred.PNG')
    expect(blurredName('noext')).toBe('noext-blurred')
  })

  it('a folder maps to a folder, images only, sorted; existing outputs are a conflict', async () => {
    const src = tempDir()
    const out = tempDir()
    for (const name of ['b.png', 'a.JPG', 'notes.txt', 'c.jpeg']) await writeFile(path.join(src, name), 'x')
    const jobs = await planBlurJobs(src, out, false)
    expect(jobs.map((j) => path.basename(j.inputPath))).toEqual(['a.JPG', 'b.png', 'c.jpeg'])
    expect(jobs.every((j) => path.dirname(j.outputPath) === out)).toBe(true)
    await writeFile(path.join(out, 'b.png'), 'old')
    await expect(planBlurJobs(src, out, false)).rejects.toThrow(
      /b\.png exists: nothing is overwritten without --overwrite/,
    )
    await expect(planBlurJobs(src, out, true)).resolves.toHaveLength(3)
  })
})
