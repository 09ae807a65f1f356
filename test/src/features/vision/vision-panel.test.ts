import { screen, waitFor, within } from '@testing-library/vue'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { fail, geoError } from '@contract/index'
import * as bridge from '../../../../src/bridge'
import BeforeAfterViewer from '../../../../src/features/vision/BeforeAfterViewer.vue'
import VisionPanel from '../../../../src/features/vision/VisionPanel.vue'
import { useVisionStore } from '../../../../src/features/vision/vision-store'
import type { FakeGeo } from '../../support/fake-geo'
import { renderInApp } from '../../support/render'

vi.mock('../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../support/fake-geo')
  const fake = createFakeGeo()
  return { geo: fake.geo, geoEvents: fake.geoEvents, fake }
})

const fake = (bridge as unknown as { fake: FakeGeo }).fake
const user = userEvent.setup({ applyAccept: false })
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3])
const image = (name: string, bytes = JPEG) => new File([bytes], name, { type: 'image/jpeg' })

beforeEach(() => {
  fake.reset()
  URL.createObjectURL = vi.fn(() => `blob:${Math.random()}`)
  URL.revokeObjectURL = vi.fn()
})

describe('the License plates panel', () => {
  it('blurs picked images one after another and lists what was blurred', async () => {
    renderInApp(VisionPanel)
    await user.upload(screen.getByLabelText('Images to blur'), [image('a.jpg'), image('b.jpg')])
    const list = screen.getByRole('list', { name: 'Images' })
    await waitFor(() => expect(within(list).getAllByText(/blurred · 1 region blurred/)).toHaveLength(2))
    expect(fake.geo['vision.blur']).toHaveBeenCalledTimes(2)
    expect(screen.getByRole('status').textContent).toContain('2 of 2 images processed')
    expect((screen.getByRole('button', { name: 'Save all blurred (2)' }) as HTMLButtonElement).disabled).toBe(
      false,
    )
  })

  it('keeps going after a file fails, and says why it failed', async () => {
    renderInApp(VisionPanel)
    fake.failNext('vision.blur', geoError('validation', 'the JPEG image is corrupt or truncated'))
    await user.upload(screen.getByLabelText('Images to blur'), [
      image('broken.jpg'),
      image('fine.jpg'),
      new File(['x'], 'notes.txt'),
    ])
    const list = screen.getByRole('list', { name: 'Images' })
    await waitFor(() => expect(within(list).getByText(/blurred · 1 region blurred/)).toBeTruthy())
    const alerts = within(list).getAllByRole('alert')
    expect(alerts.map((a) => a.textContent)).toEqual([
      expect.stringContaining('the JPEG image is corrupt or truncated'),
      expect.stringContaining('notes.txt: only .jpg, .jpeg and .png images can be blurred'),
    ])
  })

  it('cancel stops before the next image', async () => {
    renderInApp(VisionPanel)
    let release: () => void = () => undefined
    vi.mocked(fake.geo['vision.blur']).mockImplementationOnce(
      () => new Promise((resolve) => (release = () => resolve(fail('unclassified', 'late')))) as never,
    )
    await user.upload(screen.getByLabelText('Images to blur'), [
      image('1.jpg'),
      image('2.jpg'),
      image('3.jpg'),
    ])
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Blurring 1 of 3'))
    await user.click(screen.getByRole('button', { name: 'Cancel batch' }))
    release()
    await waitFor(() => expect(screen.getAllByText('cancelled')).toHaveLength(3))
    expect(fake.geo['vision.blur']).toHaveBeenCalledTimes(1)
  })

  it('saves a blurred image under its name with a suffix', async () => {
    renderInApp(VisionPanel)
    const clicks: string[] = []
    const original = HTMLAnchorElement.prototype.click
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      clicks.push(this.download)
    }
    try {
      await user.upload(screen.getByLabelText('Images to blur'), [image('street.jpg')])
      await user.click(await screen.findByRole('button', { name: 'Save street.jpg blurred' }))
      expect(clicks).toEqual(['street-blurred.jpg'])
      expect(screen.getByText(/· saved/)).toBeTruthy()
    } finally {
      HTMLAnchorElement.prototype.click = original
    }
  })
})

describe('the before/after viewer', () => {
  it('shows the selected image before and after, with a divider, zoom and the regions toggle', async () => {
    renderInApp(BeforeAfterViewer)
    expect(screen.getByText(/Blurred images show here/)).toBeTruthy()
    const store = useVisionStore()
    store.add([{ file: image('pano.jpg') }])
    await waitFor(() =>
      expect(screen.getByRole('img', { name: 'After: pano.jpg, plates blurred' })).toBeTruthy(),
    )
    expect(screen.getByRole('img', { name: 'Before: pano.jpg' })).toBeTruthy()
    const slider = screen.getByRole('slider', { name: 'Before / after divider' })
    expect((slider as HTMLInputElement).value).toBe('50')
    expect((screen.getByRole('button', { name: 'Zoom out' }) as HTMLButtonElement).disabled).toBe(true)
    await user.click(screen.getByRole('button', { name: 'Zoom in' }))
    expect((screen.getByRole('button', { name: 'Zoom out' }) as HTMLButtonElement).disabled).toBe(false)
    expect(
      (screen.getByRole('checkbox', { name: 'Show blurred regions' }) as HTMLInputElement).disabled,
    ).toBe(false)
  })
})
