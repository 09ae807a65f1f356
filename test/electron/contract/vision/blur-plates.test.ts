import { describe, expect, it } from 'vitest'
import { parseBlurredBoxes, validateBlurPlates } from '../../../../electron/contract/vision/blur-plates'

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])
const jpg = new Uint8Array([0xff, 0xd8, 0xff, 0xdb])

describe('validateBlurPlates (§4.10)', () => {
  it('accepts .jpg, .jpeg and .png whose bytes match', () => {
    expect(validateBlurPlates({ fileName: 'dir/A.PNG', bytes: png })).toMatchObject({
      ok: true,
      value: { fileName: 'A.PNG', contentType: 'image/png' },
    })
    expect(validateBlurPlates({ fileName: 'a.jpeg', bytes: jpg }).ok).toBe(true)
    expect(validateBlurPlates({ fileName: 'a.jpg', bytes: jpg }).ok).toBe(true)
  })
  it('refuses other types, mislabelled bytes and a missing file', () => {
    expect(validateBlurPlates({ fileName: 'a.webp', bytes: png })).toMatchObject({
      ok: false,
      issues: [{ field: 'file', kind: 'invalid' }],
    })
    expect(validateBlurPlates({ fileName: 'a.png', bytes: jpg })).toMatchObject({
      ok: false,
      issues: [{ rule: expect.stringMatching(/content is image\/jpeg/) }],
    })
    expect(validateBlurPlates({})).toMatchObject({ ok: false, issues: [{ kind: 'missing' }] })
  })
})

describe('parseBlurredBoxes', () => {
  it('reads a JSON list of boxes', () => {
    expect(parseBlurredBoxes('[{"x":1,"y":2,"w":3,"h":4}]')).toEqual([{ x: 1, y: 2, w: 3, h: 4 }])
    expect(parseBlurredBoxes('[]')).toEqual([])
  })

  it('does without a missing or malformed header', () => {
    for (const bad of [null, '', 'nope', '{}', '[{"x":1}]', '[{"x":1,"y":2,"w":-3,"h":4}]'])
      expect(parseBlurredBoxes(bad)).toBeUndefined()
  })
})
