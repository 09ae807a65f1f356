/// <reference lib="dom" />
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { openApp, pageProblems, useAppSession } from '../support/app'

const session = useAppSession()
const STREET = path.resolve(import.meta.dirname, '../fixtures/vision/street.jpg')

describe('license-plate blurring in the browser host (built-in local service)', () => {
  it('drop an image, see it before and after, look at the regions, save it', async () => {
    const page = await openApp(session.browser, session.host)
    const areas = page
      .getByRole('navigation', { name: 'Activity bar' })
      .getByRole('tablist', { name: 'Areas' })
    await areas.getByRole('tab', { name: 'License plates' }).click()
    const panel = page.getByRole('region', { name: 'License plates' })
    await panel.waitFor()

    // Drop the photo on the panel, as a file dragged from the desktop arrives.
    const bytes = (await readFile(STREET)).toString('base64')
    const drop = await page.evaluateHandle((b64) => {
      const data = new DataTransfer()
      const raw = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))
      data.items.add(new File([raw], 'street.jpg', { type: 'image/jpeg' }))
      return data
    }, bytes)
    await panel.dispatchEvent('dragover', { dataTransfer: drop })
    await panel.dispatchEvent('drop', { dataTransfer: drop })

    const images = panel.getByRole('list', { name: 'Images' })
    await images.getByText('street.jpg').waitFor()
    await images.getByText(/blurred · 2 regions blurred/).waitFor({ timeout: 180_000 })

    // Before and after, side by side behind the divider.
    await page
      .getByRole('tablist', { name: 'Bottom panels' })
      .getByRole('tab', { name: 'Before / after' })
      .click()
    const viewer = page.getByRole('region', { name: 'Before and after' })
    await viewer.getByRole('img', { name: 'Before: street.jpg' }).waitFor()
    const after = viewer.getByRole('img', { name: 'After: street.jpg, plates blurred' })
    await after.waitFor()
    const slider = viewer.getByRole('slider', { name: 'Before / after divider' })
    await slider.focus()
    await page.keyboard.press('Home')
    await expect
      .poll(() => after.evaluate((el) => (el as HTMLElement).style.clipPath))
      .toBe('inset(0px 0px 0px 0%)')

    // The regions the service blurred, drawn over the image on request.
    await viewer.getByRole('checkbox', { name: 'Show blurred regions' }).check()
    await expect.poll(() => viewer.getByTestId('blurred-box').count()).toBe(2)
    // Zoom in with the button, pan with the keyboard.
    await viewer.getByRole('button', { name: 'Zoom in' }).click()
    await viewer.getByRole('group', { name: /Image, before and after/ }).press('ArrowLeft')
    expect(await viewer.getByRole('button', { name: 'Zoom out' }).isEnabled()).toBe(true)

    // Save: the blurred JPEG under the name with its suffix, the same size as the photo.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('button', { name: 'Save street.jpg blurred' }).click(),
    ])
    expect(download.suggestedFilename()).toBe('street-blurred.jpg')
    const saved = await download.path()
    const meta = await sharp(saved).metadata()
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
      format: 'jpeg',
      width: 1280,
      height: 720,
    })
    await images.getByText(/· saved/).waitFor()
    expect(pageProblems(page)).toEqual([])
  }, 240_000)
})
