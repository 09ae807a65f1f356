/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { resolveConfig } from 'electron-vite'
import type { Page } from 'playwright-core'
import { createServer, mergeConfig, type Plugin, type ViteDevServer } from 'vite'
import { describe, expect, it } from 'vitest'
import { DEV_CSP_NONCE_ENV } from '../../electron/core/csp'
import { devServerPolicy, type DevServerPolicy } from '../../electron/main/dev-server-policy'
import { countOccurrences, readTree } from '../support/files'
import { openApp, pageProblems, useAppSession, watchCspViolations } from '../support/app'
import { keychainAvailability } from '../support/keychain'
import { saveScreenshot } from '../support/screenshots'

const keychain = await keychainAvailability()
const session = useAppSession()

/** Share of sampled map pixels that are neither blank nor one flat colour: the basemap is drawn. */
async function basemapCoverage(page: Page): Promise<{ colours: number; painted: number }> {
  return page.evaluate(() => {
    const canvases = [...document.querySelectorAll<HTMLCanvasElement>('[aria-label="Map"] canvas')]
    const colours = new Set<string>()
    let painted = 0
    let total = 0
    for (const canvas of canvases) {
      const ctx = canvas.getContext('2d', { willReadFrequently: true })
      if (!ctx || canvas.width === 0) continue
      const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data
      for (let i = 0; i < data.length; i += 4 * 97) {
        total++
        if ((data[i + 3] ?? 0) > 0) {
          painted++
          colours.add(`${data[i]},${data[i + 1]},${data[i + 2]}`)
        }
      }
    }
    return { colours: colours.size, painted: total ? painted / total : 0 }
  })
}

describe('the app shell in the browser host', () => {
  it('opens with the map of India drawn from the offline basemap', async () => {
    const page = await openApp(session.browser, session.host)
    await expect.poll(() => page.title()).toMatch(/Geo Analyst/)
    const map = page.getByRole('region', { name: 'Map' })
    await map.waitFor()
    await expect
      .poll(async () => (await basemapCoverage(page)).painted, { timeout: 20_000 })
      .toBeGreaterThan(0.5)
    // States drawn in their own colours over the sea: several distinct colours, not a blank canvas.
    expect((await basemapCoverage(page)).colours).toBeGreaterThan(3)
    // Cursor coordinates follow the mouse over the map, in India's range of longitudes.
    const box = (await map.boundingBox())!
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    await expect
      .poll(
        async () =>
          (await page
            .getByText(/\d+\.\d{5}/)
            .first()
            .textContent()) ?? '',
      )
      .toMatch(/(6[89]|[78]\d|9[0-7])\.\d{5}/)
    expect(pageProblems(page)).toEqual([])
    await page.getByText(/web host/).waitFor()
    await saveScreenshot(page, 'app.png')
    await page.context().close()
  })

  it('has an activity bar and panels a keyboard user can work, and keeps the layout across a reload', async () => {
    const page = await openApp(session.browser, session.host, undefined, 'Spatial analytics')
    // One activity bar entry per area; the open area's side panels are its tab panel.
    const areas = page
      .getByRole('navigation', { name: 'Activity bar' })
      .getByRole('tablist', { name: 'Areas' })
    const gis = areas.getByRole('tab', { name: 'Spatial analytics' })
    await gis.waitFor()
    // The map's own entry (Layers) first, then the areas by their order.
    expect((await areas.getByRole('tab').allTextContents())[0]).toBe('Layers')
    expect(await areas.getByRole('tab').count()).toBeGreaterThan(2)
    expect(await gis.getAttribute('aria-selected')).toBe('true')
    expect(await gis.getAttribute('aria-expanded')).toBe('true')
    const side = page.getByRole('tabpanel', { name: 'Spatial analytics' })
    await side.getByRole('region', { name: 'Datasets' }).waitFor()
    await side.getByRole('form', { name: 'Spatial join' }).waitFor()

    // The area's tab folds its side panel away and back, from the keyboard.
    await gis.focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => gis.getAttribute('aria-expanded')).toBe('false')
    await page.getByRole('region', { name: 'Datasets' }).waitFor({ state: 'hidden' })
    await page.keyboard.press('Space')
    await page.getByRole('region', { name: 'Datasets' }).waitFor()
    // Arrow keys move between the areas and stay in the activity bar.
    await page.keyboard.press('ArrowUp')
    expect(await gis.evaluate((el) => el === document.activeElement)).toBe(false)
    expect(await page.evaluate(() => !!document.activeElement?.closest('[role="tablist"]'))).toBe(true)
    // ArrowDown comes back to the area it left (whatever areas sit above it).
    await page.keyboard.press('ArrowDown')
    expect(await gis.evaluate((el) => el === document.activeElement)).toBe(true)
    // License plates sits below Spatial analytics.
    await page.keyboard.press('ArrowDown')
    const vision = areas.getByRole('tab', { name: 'License plates' })
    expect(await vision.evaluate((el) => el === document.activeElement)).toBe(true)
    await page.keyboard.press('ArrowUp')
    expect(await gis.evaluate((el) => el === document.activeElement)).toBe(true)

    // Bottom panels are tabs: arrow keys move between them and show each panel.
    const bottom = page.getByRole('tablist', { name: 'Bottom panels' })
    const results = bottom.getByRole('tab', { name: 'Results' })
    const history = bottom.getByRole('tab', { name: 'Run history' })
    expect(await results.getAttribute('aria-selected')).toBe('true')
    await page.getByRole('region', { name: 'Results' }).waitFor()
    await results.focus()
    await page.keyboard.press('ArrowRight')
    expect(await history.evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await history.getAttribute('aria-selected')).toBe('true')
    await page.getByRole('region', { name: 'Run history' }).waitFor()
    await page.getByRole('region', { name: 'Results' }).waitFor({ state: 'hidden' })
    // Tab leaves the tab list for the panel's own controls (one tab stop per tab list).
    expect(await results.getAttribute('tabindex')).toBe('-1')

    // The layout comes back after a reload: Run history shown, side panel folded.
    await gis.click()
    await expect.poll(() => gis.getAttribute('aria-expanded')).toBe('false')
    await page.reload()
    await page.getByRole('region', { name: 'Run history' }).waitFor()
    expect(await page.getByRole('tab', { name: 'Run history' }).getAttribute('aria-selected')).toBe('true')
    await expect
      .poll(() => page.getByRole('tab', { name: 'Spatial analytics' }).getAttribute('aria-expanded'))
      .toBe('false')
    expect(await page.getByRole('region', { name: 'Datasets' }).count()).toBe(0)
    await page.getByRole('button', { name: 'Side panel' }).click()
    await page.getByRole('region', { name: 'Datasets' }).waitFor()
    expect(pageProblems(page)).toEqual([])
    await page.context().close()
  })

  it('opens Settings as a modal dialog that holds the focus, closes on Escape and gives the focus back', async () => {
    const page = await openApp(session.browser, session.host)
    const settings = page.getByRole('button', { name: 'Settings' })
    await settings.focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog', { name: 'Settings' })
    await dialog.getByRole('heading', { name: 'Connection profiles' }).waitFor()
    const inDialog = () => page.evaluate(() => !!document.activeElement?.closest('dialog[open]'))
    expect(await inDialog()).toBe(true)
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press(i < 20 ? 'Tab' : 'Shift+Tab')
      // Focus may pass through the browser's own UI between the last and the first control; never the page.
      expect(
        await page.evaluate(
          () => document.activeElement === document.body || !!document.activeElement?.closest('dialog[open]'),
        ),
      ).toBe(true)
    }
    await page.getByRole('button', { name: 'Close Settings' }).focus()
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })
    expect(await settings.evaluate((el) => el === document.activeElement)).toBe(true)
    // Shortcuts of the map (Escape, Delete, Ctrl+Z) are not taken while typing in Settings.
    await page.keyboard.press('Enter')
    await dialog.waitFor()
    await page.getByLabel('XYZ tile URL template').press('Escape')
    await dialog.waitFor({ state: 'hidden' })
    expect(pageProblems(page)).toEqual([])
    await page.context().close()
  })

  it.skipIf(!keychain.available)(
    'saves a credential from the Settings screen as set, never showing its value',
    async () => {
      const page = await openApp(session.browser, session.host)
      const canary = `canary-${randomBytes(10).toString('hex')}`
      await page.getByRole('button', { name: 'Settings' }).click()
      await page.getByRole('heading', { name: 'Settings' }).waitFor()
      // A remote profile of the user's own: the Local profile's credentials come from the local service.
      await page.getByRole('button', { name: 'New profile' }).click()
      await page.getByRole('textbox', { name: 'Profile name' }).fill('Cloud')
      for (const key of [
        'atlas_url',
        'advancedmaps_url',
        'mgis_url',
        'mgis_v2_url',
        'telematics_url',
        'aiml_url',
      ]) {
        await page
          .getByRole('textbox', { name: key, exact: true })
          .fill(`https://${key.replace(/_/g, '-')}.example.com`)
      }
      await page.getByRole('button', { name: 'Save profile' }).click()
      await page.getByRole('button', { name: 'Use Cloud' }).click()
      await page.getByRole('heading', { name: 'Credentials of profile “Cloud”' }).waitFor()
      const field = page.getByLabel('Bearer token (all groups)', { exact: true })
      await field.fill(canary)
      await page.getByRole('button', { name: 'Save Bearer token (all groups)' }).click()
      await expect.poll(async () => field.inputValue()).toBe('')
      await expect.poll(async () => page.getByText(/^Set\b/).count()).toBeGreaterThan(0)
      expect(await page.content()).not.toContain(canary)
      // The value reached the Secret Service and nothing else: no config file and no host log holds it.
      const stored = execFileSync(
        'secret-tool',
        ['lookup', 'service', 'geo-analyst', 'username', 'Cloud:token'],
        { encoding: 'utf8' },
      )
      expect(stored).toBe(canary)
      for (const { file, text } of readTree(session.host.configDir))
        expect(countOccurrences(text, canary), file).toBe(0)
      expect(session.host.output()).not.toContain(canary)
      await page.context().close()
    },
  )
})

/**
 * Open `url` in a fresh context with every Content-Security-Policy violation the page reports collected
 * (the `securitypolicyviolation` event, from the first script on: Chromium reports some refusals, such as
 * a refused `eval`, only there and not on the console).
 */
async function openWatched(url: string): Promise<{ page: Page; violations: string[] }> {
  const context = await session.browser.newContext({ viewport: { width: 1400, height: 900 } })
  const page = await context.newPage()
  const violations: string[] = []
  await watchCspViolations(page, violations)
  await page.goto(url)
  await page.getByRole('region', { name: 'Map' }).waitFor({ timeout: 60_000 })
  return { page, violations }
}

/** Wait until no panel of the page is still being loaded (the lazy panels' placeholder). */
async function panelsLoaded(page: Page): Promise<void> {
  await expect
    .poll(() => page.locator('p.ga-hint[role="status"]', { hasText: /^Loading…$/ }).count(), {
      timeout: 30_000,
    })
    .toBe(0)
}

/** Open every area of the activity bar, every bottom panel and Settings, as a person would. */
async function openEveryPanel(page: Page): Promise<string[]> {
  const activity = page.getByRole('navigation', { name: 'Activity bar' })
  const areas = (await activity.getByRole('tab').allTextContents()).map((name) => name.trim())
  for (const name of areas) {
    const tab = activity.getByRole('tab', { name, exact: true })
    if (
      (await tab.getAttribute('aria-selected')) !== 'true' ||
      (await tab.getAttribute('aria-expanded')) !== 'true'
    )
      await tab.click()
    await page.getByRole('tabpanel', { name, exact: true }).waitFor()
    await panelsLoaded(page)
    const bottom = page.getByRole('tablist', { name: 'Bottom panels' })
    for (const panel of (await bottom.getByRole('tab').allTextContents()).map((n) => n.trim())) {
      await bottom.getByRole('tab', { name: panel, exact: true }).click()
      await panelsLoaded(page)
    }
  }
  await page.getByRole('button', { name: 'Settings' }).click()
  await page
    .getByRole('dialog', { name: 'Settings' })
    .getByRole('heading', { name: 'Connection profiles' })
    .waitFor()
  await page.keyboard.press('Escape')
  await page.getByRole('dialog', { name: 'Settings' }).waitFor({ state: 'hidden' })
  return areas
}

/** The page's style elements, and how many carry its nonce. */
async function styleElements(page: Page): Promise<{ elements: number; withNonce: number; nonce: string }> {
  return page.evaluate(() => {
    const nonce = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce ?? ''
    const styles = [...document.querySelectorAll('style')]
    return {
      elements: styles.length,
      withNonce: styles.filter((s) => nonce && s.nonce === nonce).length,
      nonce,
    }
  })
}

describe('the page’s Content-Security-Policy', () => {
  it('reports no violation while every area, every bottom panel and Settings are opened', async () => {
    const { page, violations } = await openWatched(session.host.openUrl)
    const areas = await openEveryPanel(page)
    expect(areas.length).toBeGreaterThanOrEqual(6)
    expect(violations).toEqual([])
    expect(pageProblems(page)).toEqual([])
    await page.context().close()
  })

  it('refuses style elements without the nonce and style attributes, and leaves styles set through the CSSOM', async () => {
    const { page, violations } = await openWatched(session.host.openUrl)
    const probe = async (name: string, action: string) => {
      const before = violations.length
      const colour = await page.evaluate(`(async () => {
        const el = document.createElement('div')
        el.id = 'csp-probe'
        document.body.append(el)
        ${action}
        await new Promise((resolve) => setTimeout(resolve, 100))
        const colour = getComputedStyle(el.firstElementChild ?? el).color
        el.remove()
        return colour
      })()`)
      // The event is delivered after the refusal: give it its turn.
      await page.waitForTimeout(100)
      return { name, colour, refused: violations.slice(before).map((v) => v.split(' ')[0]) }
    }
    const red = 'rgb(255, 0, 0)'
    const results = [
      // What Vue's :style, v-show and OpenLayers do: the CSSOM, which CSP does not govern.
      await probe('property', `el.style.color = '${red}'`),
      await probe('cssText', `el.style.cssText = 'color: ${red}'`),
      await probe('setProperty', `el.style.setProperty('color', '${red}')`),
      // What the policy refuses: a style attribute, however it arrives, and a style element without the nonce.
      await probe('setAttribute', `el.setAttribute('style', 'color: ${red}')`),
      await probe('innerHTML', `el.innerHTML = '<span style="color: ${red}">x</span>'`),
      await probe(
        'style element',
        `const s = document.createElement('style'); s.textContent = '#csp-probe { color: ${red} }'; document.head.append(s)`,
      ),
      await probe(
        'style element with the nonce',
        `const s = document.createElement('style'); s.nonce = document.querySelector('meta[property="csp-nonce"]').nonce;
         s.textContent = '#csp-probe { color: ${red} }'; document.head.append(s)`,
      ),
    ]
    expect(results.map((r) => [r.name, r.colour === red, r.refused])).toEqual([
      ['property', true, []],
      ['cssText', true, []],
      ['setProperty', true, []],
      ['setAttribute', false, ['style-src-attr']],
      ['innerHTML', false, ['style-src-attr']],
      ['style element', false, ['style-src-elem']],
      ['style element with the nonce', true, []],
    ])
    await page.context().close()
  })

  it('holds on the dev server of npm run dev too: every injected style carries the run’s nonce, none is refused', async () => {
    // The renderer's dev server as `npm run dev` makes it (electron-vite's resolved config, our plugins),
    // on a free loopback port; the API goes on to this file's browser host.
    const nodeEnv = process.env.NODE_ENV
    const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'geo-vite-dev-'))
    let policy: DevServerPolicy | undefined
    let origin = ''
    // Electron's `webRequest.onHeadersReceived` (electron/main/index.ts): each answer's headers from the policy.
    const headersOfElectron: Plugin = {
      name: 'test:electron-headers',
      configureServer: (server) =>
        void server.middlewares.use((req, res, next) => {
          void policy!.headers(`${origin}${req.url ?? '/'}`, {}).then((headers) => {
            for (const [name, value] of Object.entries(headers)) res.setHeader(name, value)
            next()
          })
        }),
    }
    let vite: ViteDevServer | undefined
    try {
      delete process.env[DEV_CSP_NONCE_ENV]
      const resolved = await resolveConfig({ root: path.resolve(import.meta.dirname, '../..') }, 'serve')
      const renderer = resolved.config?.renderer
      process.env.NODE_ENV = nodeEnv
      vite = await createServer(
        mergeConfig(renderer ?? {}, {
          cacheDir,
          logLevel: 'warn',
          plugins: [headersOfElectron],
          server: {
            host: '127.0.0.1',
            port: 0,
            proxy: {
              '/api': {
                target: session.host.url,
                changeOrigin: true,
                // The browser host takes its API from its own page only; this page is the dev server's.
                configure: (proxy: {
                  on(e: 'proxyReq', f: (r: { removeHeader(n: string): void }) => void): void
                }) =>
                  proxy.on('proxyReq', (request) => {
                    request.removeHeader('origin')
                    request.removeHeader('sec-fetch-site')
                  }),
              },
            },
          },
        }),
      )
      await vite.listen()
      origin = new URL(vite.resolvedUrls!.local[0]!).origin
      // What Electron reads at its start: the nonce the dev server's config made for this run.
      expect(process.env[DEV_CSP_NONCE_ENV]).toMatch(/^[A-Za-z0-9+/]{24}$/)
      policy = devServerPolicy({ devServerUrl: origin, env: process.env, tileUrls: async () => [] })

      const secret = new URL(session.host.openUrl).hash
      const { page, violations } = await openWatched(`${origin}/${secret}`)
      const response = await page.request.get(`${origin}/`)
      expect(response.headers()['content-security-policy']).toContain(
        `style-src 'self' 'nonce-${process.env[DEV_CSP_NONCE_ENV]}'`,
      )
      expect(response.headers()['content-security-policy']).not.toContain('unsafe-inline')
      await openEveryPanel(page)
      // Vite injects each component's styles as style elements: all of them carry the nonce, and apply.
      const styles = await styleElements(page)
      expect(styles.nonce).toBe(process.env[DEV_CSP_NONCE_ENV])
      expect(styles.elements).toBeGreaterThan(10)
      expect(styles.withNonce).toBe(styles.elements)
      // The activity bar's own (scoped) style element applied: its tab list is a flex column.
      expect(
        await page
          .getByRole('tablist', { name: 'Areas' })
          .evaluate((el) => [getComputedStyle(el).display, getComputedStyle(el).flexDirection]),
      ).toEqual(['flex', 'column'])
      expect(violations).toEqual([])
      await page.context().close()
    } finally {
      await vite?.close()
      process.env.NODE_ENV = nodeEnv
      delete process.env[DEV_CSP_NONCE_ENV]
      rmSync(cacheDir, { recursive: true, force: true })
    }
  })
})
