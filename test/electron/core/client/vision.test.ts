import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FakeProvider } from '../../../support/fake-provider'
import { clientFor, TOKEN } from './helpers'

let fake: FakeProvider
beforeEach(async () => {
  fake = await new FakeProvider().start()
})
afterEach(() => fake.stop())

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4])
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 9, 9, 9])

describe('vision client', () => {
  it('uploads the image as multipart field "file" and returns the blurred bytes', async () => {
    fake.on('/aiml/license_plate_blur_pano', {
      status: 200,
      body: JPEG,
      headers: { 'content-type': 'image/jpeg' },
    })
    const { client } = clientFor(fake)
    const r = await client.vision.blurPlates({ fileName: '/tmp/pano.png', bytes: PNG })
    const req = fake.received[0]!
    expect(req.method).toBe('POST')
    expect(req.headers.authorization).toBe(`Bearer ${TOKEN}`)
    expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/)
    const text = req.body.toString('latin1')
    expect(text).toContain('name="file"; filename="pano.png"')
    expect(text).toContain('Content-Type: image/png')
    expect(req.body.includes(PNG)).toBe(true)
    expect(r.ok && Buffer.from(r.value.bytes).equals(JPEG)).toBe(true)
  })

  it('rejects other file types and mislabelled content before sending', async () => {
    const { client } = clientFor(fake)
    expect((await client.vision.blurPlates({ fileName: 'a.gif', bytes: PNG })).ok).toBe(false)
    const r = await client.vision.blurPlates({ fileName: 'a.jpg', bytes: PNG })
    expect(r.ok ? null : r.error).toMatchObject({ failureClass: 'validation', field: 'file' })
    expect(fake.received).toHaveLength(0)
  })

  it('an upload is not resent after a reset', async () => {
    fake.on('/aiml/license_plate_blur_pano', { reset: true }, { status: 200, body: JPEG })
    const r = await clientFor(fake).client.vision.blurPlates({ fileName: 'p.jpeg', bytes: JPEG })
    expect(fake.received).toHaveLength(1)
    expect(r.ok ? '' : r.error.message).toMatch(/not resent automatically/)
  })

  it('a 200 without an image is an error naming the operation', async () => {
    fake.on('/aiml/license_plate_blur_pano', { status: 200, json: { message: 'quota' } })
    const r = await clientFor(fake).client.vision.blurPlates({ fileName: 'p.jpeg', bytes: JPEG })
    expect(r.ok ? '' : r.error.message).toMatch(/vision\.blurPlates: .*without an image.*quota/)
  })

  it('passes on the blurred boxes when the service lists them, and does without them otherwise', async () => {
    const boxes = [{ x: 10, y: 20, w: 30, h: 12 }]
    fake.on('/aiml/license_plate_blur_pano', {
      status: 200,
      body: JPEG,
      headers: { 'content-type': 'image/jpeg', 'x-blurred-boxes': JSON.stringify(boxes) },
    })
    const listed = await clientFor(fake).client.vision.blurPlates({ fileName: 'p.jpg', bytes: JPEG })
    expect(listed.ok && listed.value.boxes).toEqual(boxes)
    fake.on('/aiml/license_plate_blur_pano', {
      status: 200,
      body: JPEG,
      headers: { 'content-type': 'image/jpeg', 'x-blurred-boxes': '[{"x":"a"}]' },
    })
    const garbled = await clientFor(fake).client.vision.blurPlates({ fileName: 'p.jpg', bytes: JPEG })
    expect(garbled.ok && garbled.value.boxes).toBeUndefined()
  })
})
