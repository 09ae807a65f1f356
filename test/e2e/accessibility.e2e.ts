/// <reference lib="dom" />
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seriousViolations } from '../support/axe'
import { openApp, openArea, pageProblems, startHost, useAppSession, type RunningHost } from '../support/app'
import { startTileServer } from '../support/tile-server'

const session = useAppSession()
const THEMES = ['light', 'dark'] as const
type Theme = (typeof THEMES)[number]

/** axe finds no serious or critical violation on the whole page as it is now. */
async function expectClean(page: Page, where: string): Promise<void> {
  expect(await seriousViolations(page), where).toEqual([])
}

/** Choose a theme with the toolbar's theme button, as a person would (system → light → dark → system). */
async function chooseTheme(page: Page, theme: Theme): Promise<void> {
  const button = page.getByRole('banner').getByRole('button', { name: /^Theme: / })
  for (let i = 0; i < 3; i++) {
    if ((await button.getAttribute('aria-label'))?.startsWith(`Theme: ${theme} `)) break
    await button.click()
  }
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset['theme'])).toBe(theme)
}

/** Wait until no panel of the page is still being loaded (the lazy panels' placeholder). */
async function panelsLoaded(page: Page): Promise<void> {
  await expect
    .poll(() => page.locator('p.ga-hint[role="status"]', { hasText: /^Loading…$/ }).count(), {
      timeout: 30_000,
    })
    .toBe(0)
}

/**
 * Show an element's tooltip (by pointer or by keyboard focus), check it is outside the element and tied to
 * it, then run axe while it shows; hide it again.
 */
async function withTooltip(
  page: Page,
  anchor: Locator,
  how: 'hover' | 'focus',
  where: string,
): Promise<string> {
  if (how === 'hover') await anchor.hover()
  else {
    await page.keyboard.press('Shift') // the last input was a key: focus shows as keyboard focus
    await anchor.focus()
  }
  const tip = page.getByRole('tooltip')
  await tip.waitFor({ state: 'visible' })
  const text = ((await tip.textContent()) ?? '').trim()
  expect(await anchor.evaluate((el) => !!el.querySelector('[role="tooltip"]')), where).toBe(false)
  const describedBy = await anchor.getAttribute('aria-describedby')
  if (describedBy) expect(await tip.locator(`[id="${describedBy}"]`).count(), `${where}: "${text}"`).toBe(1)
  await expectClean(page, `${where}, tooltip "${text}" showing`)
  await page.keyboard.press('Escape')
  await tip.waitFor({ state: 'hidden' })
  await page.mouse.move(1, 1)
  return text
}

/** The mean luminance (0 black … 255 white) of the map as the screen shows it, away from its controls. */
async function mapLuminance(page: Page): Promise<number> {
  const map = page.getByRole('region', { name: 'Map' })
  const shot = await map.screenshot({ animations: 'disabled' })
  return page.evaluate(async (data) => {
    const image = new Image()
    image.src = `data:image/png;base64,${data}`
    await image.decode()
    const canvas = document.createElement('canvas')
    canvas.width = image.naturalWidth
    canvas.height = image.naturalHeight
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!
    ctx.drawImage(image, 0, 0)
    // The middle of the map: the basemap, not the overlays in its corners.
    const [x0, y0] = [Math.round(canvas.width * 0.25), Math.round(canvas.height * 0.25)]
    const pixels = ctx.getImageData(x0, y0, Math.round(canvas.width / 2), Math.round(canvas.height / 2)).data
    let sum = 0
    let n = 0
    for (let i = 0; i < pixels.length; i += 4 * 7) {
      sum += 0.2126 * pixels[i]! + 0.7152 * pixels[i + 1]! + 0.0722 * pixels[i + 2]!
      n++
    }
    return sum / n
  }, shot.toString('base64'))
}

describe('accessibility: every area, both themes, tooltips showing and dialogs open', () => {
  for (const theme of THEMES) {
    it(
      `has no serious or critical axe violation anywhere in the ${theme} theme`,
      { timeout: 600_000 },
      async () => {
        const page = await openApp(session.browser, session.host)
        await page.getByRole('navigation', { name: 'Activity bar' }).waitFor({ timeout: 60_000 })
        await openArea(page, 'Layers')
        await chooseTheme(page, theme)
        await panelsLoaded(page)
        await expectClean(page, 'first screen')

        // The toolbar: every button's tooltip, by pointer; one by keyboard.
        const toolbarButtons = page.getByRole('banner').getByRole('button')
        const tips: string[] = []
        for (let i = 0; i < (await toolbarButtons.count()); i++) {
          const button = toolbarButtons.nth(i)
          if (await button.isDisabled()) continue
          tips.push(await withTooltip(page, button, 'hover', `toolbar button ${i}`))
        }
        expect(tips).toEqual(
          expect.arrayContaining(['Settings', expect.stringMatching(/^Export map — Export/)]),
        )
        await withTooltip(
          page,
          page.getByRole('banner').getByRole('button', { name: 'Settings' }),
          'focus',
          'toolbar',
        )

        // Every area: its side panel, its tab's tooltip, the first tooltip inside its panel, its bottom tabs.
        const activity = page.getByRole('navigation', { name: 'Activity bar' })
        const areas = (await activity.getByRole('tab').allTextContents()).map((n) => n.trim())
        expect(areas.length).toBeGreaterThanOrEqual(6)
        for (const area of areas) {
          await openArea(page, area)
          await panelsLoaded(page)
          await expectClean(page, `${area} panel`)
          const tab = activity.getByRole('tab', { name: area, exact: true })
          expect(await withTooltip(page, tab, 'hover', `${area} tab`)).toBe(area)
          const side = page.getByRole('tabpanel', { name: area, exact: true })
          const anchor = side.locator('.ga-icon-button, [aria-describedby]:has(.ga-tooltip-marker)').first()
          if ((await anchor.count()) > 0 && (await anchor.isVisible()))
            await withTooltip(page, anchor, 'focus', `${area} panel`)
          const bottom = page.getByRole('tablist', { name: 'Bottom panels' })
          if (await bottom.isVisible()) {
            for (const name of (await bottom.getByRole('tab').allTextContents()).map((n) => n.trim())) {
              await bottom.getByRole('tab', { name, exact: true }).click()
              await panelsLoaded(page)
              await expectClean(page, `${area}: bottom panel ${name}`)
            }
          }
        }

        // Map controls: the drawing tools (a tooltip with a note), the search box's filters.
        await openArea(page, 'Spatial analytics')
        const circle = page
          .getByRole('toolbar', { name: 'Drawing tools' })
          .getByRole('button', { name: 'Draw circle' })
        expect(await withTooltip(page, circle, 'hover', 'drawing tools')).toMatch(
          /^Draw circle — Circle \(64 vertices\): sent as a polygon/,
        )
        const filters = page.getByRole('button', { name: 'Filters' })
        if ((await filters.count()) > 0) {
          await filters.first().click()
          await expectClean(page, 'search filters open')
          await filters.first().click()
        }

        // Dialogs: Settings, Export map; the style editor of a layer.
        await page.getByRole('banner').getByRole('button', { name: 'Settings' }).click()
        const settings = page.getByRole('dialog', { name: 'Settings' })
        await settings.getByRole('heading', { name: 'Connection profiles' }).waitFor()
        await expectClean(page, 'Settings open')
        await page.keyboard.press('Escape')
        await settings.waitFor({ state: 'hidden' })

        await page.getByRole('banner').getByRole('button', { name: 'Export map' }).click()
        const exporter = page.getByRole('dialog', { name: 'Export map' })
        await exporter.waitFor()
        await expectClean(page, 'Export map open')
        await page.keyboard.press('Escape')
        await exporter.waitFor({ state: 'hidden' })

        await openArea(page, 'Spatial analytics')
        const show = page.getByRole('button', { name: 'Show india_states on map' })
        if ((await show.getAttribute('aria-pressed')) !== 'true') await show.click()
        await expect.poll(() => show.getAttribute('aria-pressed'), { timeout: 30_000 }).toBe('true')
        await expectClean(page, 'a dataset shown (its toggle pressed)')
        await openArea(page, 'Layers')
        const layers = page.getByRole('tabpanel', { name: 'Layers' })
        await layers.getByRole('button', { name: 'Style india_states' }).click()
        await layers
          .getByRole('region', { name: 'Style of india_states' })
          .getByRole('combobox', { name: 'Symbol' })
          .waitFor()
        await expectClean(page, 'style editor open')
        await withTooltip(
          page,
          layers.getByRole('button', { name: 'Move india_states', exact: true }),
          'focus',
          'layer handle',
        )
        await layers.getByRole('button', { name: 'Style india_states' }).click()

        // The fleet's device drawer.
        await openArea(page, 'Fleet')
        const devices = page.getByRole('table', { name: 'Devices' })
        await expect.poll(() => devices.getByRole('row').count(), { timeout: 60_000 }).toBeGreaterThan(2)
        await devices.getByRole('row').nth(1).click()
        await page
          .getByRole('region', { name: 'Device details' })
          .getByRole('region', { name: 'Location' })
          .waitFor({ timeout: 30_000 })
        await expectClean(page, 'device drawer open')
        const badge = page.getByRole('region', { name: 'Devices' }).getByText('simulated', { exact: true })
        await withTooltip(page, badge, 'focus', 'simulated badge')

        expect(pageProblems(page)).toEqual([])
        await page.context().close()
      },
    )
  }

  it(
    'Start here on a fresh profile: three real actions, each marked done, then gone for good',
    { timeout: 300_000 },
    async () => {
      const page = await openApp(session.browser, session.host)
      await page.evaluate(() => localStorage.clear())
      await page.reload()
      const layers = page.getByRole('tabpanel', { name: 'Layers' })
      const start = layers.getByRole('region', { name: 'Start here' })
      await start.waitFor({ timeout: 30_000 })
      await expectClean(page, 'Start here')
      const step = (title: string) => start.getByRole('listitem').filter({ hasText: title })

      await start.getByRole('button', { name: 'Show the sample cities' }).click()
      await expect
        .poll(() => step('See a dataset on the map').textContent(), { timeout: 60_000 })
        .toContain('Done')
      await layers
        .getByRole('list', { name: 'Layers' })
        .getByRole('listitem', { name: 'india_cities' })
        .waitFor()

      await start.getByRole('button', { name: 'Join cities in a circle' }).click()
      await expect
        .poll(() => step('Join it with a drawn shape').textContent(), { timeout: 120_000 })
        .toContain('Done')
      await expectClean(page, 'Start here, two steps done')
      // The cities in the circle are in Results, the circle among the drawn shapes.
      await openArea(page, 'Spatial analytics')
      const results = page.getByRole('region', { name: 'Results' })
      await results
        .getByRole('status')
        .filter({ hasText: /\d rows?/ })
        .waitFor({ timeout: 30_000 })
      await page
        .getByRole('list', { name: 'Drawn shapes' })
        .getByText(/^Circle \d+ · r 150/)
        .waitFor()
      await openArea(page, 'Layers')

      await start.getByRole('button', { name: 'Standardize a sample address' }).click()
      const address = page.getByRole('form', { name: 'Standardize an address' })
      await address.getByRole('table', { name: 'Standardized address' }).waitFor({ timeout: 60_000 })
      expect(await address.getByRole('table').textContent()).toContain('122001')
      await openArea(page, 'Layers')
      await layers.getByRole('heading', { name: 'Layers' }).waitFor()
      expect(await start.count()).toBe(0)
      // Gone for good: not back after a reload.
      await page.reload()
      await layers.getByRole('heading', { name: 'Layers' }).waitFor({ timeout: 30_000 })
      await panelsLoaded(page)
      expect(await layers.getByRole('region', { name: 'Start here' }).count()).toBe(0)
      expect(pageProblems(page)).toEqual([])
      await page.context().close()
    },
  )

  it(
    'draws the map dark in the dark theme: the offline basemap, and an XYZ server’s light tiles',
    { timeout: 300_000 },
    async () => {
      const page = await openApp(session.browser, session.host)
      const map = page.getByRole('region', { name: 'Map' })
      await map.waitFor({ timeout: 30_000 })
      await page.getByRole('button', { name: 'Zoom to India' }).click()
      await chooseTheme(page, 'light')
      await expect.poll(() => mapLuminance(page), { timeout: 20_000 }).toBeGreaterThan(150)
      await chooseTheme(page, 'dark')
      await expect.poll(() => mapLuminance(page), { timeout: 20_000 }).toBeLessThan(70)

      await page.context().close()

      // An XYZ basemap (a tile server on this machine serving light tiles) is darkened too. It is chosen
      // before the page opens: the page's policy allows images from the tile server it was opened with.
      const tiles = await startTileServer()
      const savePreferences = (xyzUrl: string, kind: 'xyz' | 'offline') =>
        fetch(`${session.host.url}api/op/settings.savePreferences`, {
          method: 'POST',
          headers: {
            'x-geo-session': new URL(session.host.openUrl).hash.replace('#session=', ''),
            'content-type': 'application/json',
          },
          body: JSON.stringify({ basemap: { kind, xyzUrl } }),
        }).then(async (r) => expect(((await r.json()) as { ok: boolean }).ok).toBe(true))
      try {
        await savePreferences(tiles.template, 'xyz')
        const tiled = await openApp(session.browser, session.host)
        await tiled.getByRole('region', { name: 'Map' }).waitFor({ timeout: 30_000 })
        await chooseTheme(tiled, 'dark')
        await expect.poll(() => tiles.requests(), { timeout: 20_000 }).toBeGreaterThan(4)
        await expect.poll(() => mapLuminance(tiled), { timeout: 20_000 }).toBeLessThan(70)
        await chooseTheme(tiled, 'light')
        await expect.poll(() => mapLuminance(tiled), { timeout: 20_000 }).toBeGreaterThan(150)
        expect(pageProblems(tiled)).toEqual([])
        await tiled.context().close()
      } finally {
        // Back to the offline basemap for the rest of the file.
        await savePreferences(tiles.template, 'offline')
        await tiles.stop()
      }
    },
  )
})

describe('notices without a keychain (the browser host on a server)', () => {
  let host: RunningHost
  beforeAll(async () => {
    // No Secret Service answers on this bus: credentials are kept for the session only, and the app says so.
    host = await startHost({ env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/geo-e2e-bus' } })
  })
  afterAll(async () => {
    await host?.stop()
  })

  it('sets the keychain notice aside to an icon in the status bar, named by its text, that brings it back', async () => {
    const page = await openApp(session.browser, host)
    const notice = page.getByRole('status').filter({ hasText: 'Your system keychain did not answer' })
    await notice.waitFor({ timeout: 30_000 })
    const message = ((await notice.locator('.notice-message').textContent()) ?? '').trim()
    for (const theme of THEMES) {
      await chooseTheme(page, theme)
      await expectClean(page, `keychain notice, ${theme}`)
    }
    await notice.getByRole('button', { name: 'Set aside' }).click()
    await notice.waitFor({ state: 'hidden' })
    const icon = page.getByRole('contentinfo', { name: 'Status bar' }).getByRole('button', { name: message })
    await icon.waitFor()
    expect(await icon.evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await withTooltip(page, icon, 'hover', 'notice icon')).toContain(message)
    // Set aside for the session: still aside after a reload.
    await page.reload()
    await icon.waitFor({ timeout: 30_000 })
    expect(await page.getByText(message, { exact: true }).count()).toBe(0)
    await icon.click()
    await notice.waitFor()
    expect(await icon.count()).toBe(0)
    expect(pageProblems(page)).toEqual([])
    await page.context().close()
  })
})
