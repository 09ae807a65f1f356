import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, openApp, pageProblems, startHost, type RunningHost } from '../support/app'
import { composePointJoin, cursorAt, markTime, rowCount, seedPointJoin } from '../support/big-join'

/**
 * A join answering 200,000 point rows, run from the form in the browser host and looked at as a person
 * would: the row count, the table, the points on the map (drawn by the WebGL layer), the map panned with
 * the mouse, and the table filtered (in a worker) while the map stays usable.
 */

const COUNT = 200_000
let browser: Browser
let host: RunningHost
let dataDir: string

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'geo-e2e-large-'))
  await seedPointJoin(dataDir, [COUNT])
  ;[browser, host] = await Promise.all([launchBrowser(), startHost({ dataDir })])
})
afterAll(async () => {
  await browser?.close()
  await host?.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

/** How many pixels of a screenshot are the results' magenta (#c026d3, the layer's first colour). */
async function magentaPixels(page: import('playwright-core').Page, png: Buffer): Promise<number> {
  return page.evaluate(async (base64) => {
    const image = new Image()
    image.src = `data:image/png;base64,${base64}`
    await image.decode()
    const canvas = document.createElement('canvas')
    canvas.width = image.width
    canvas.height = image.height
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!
    ctx.drawImage(image, 0, 0)
    const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data
    let count = 0
    for (let i = 0; i < data.length; i += 4)
      if (
        Math.abs(data[i]! - 192) < 24 &&
        Math.abs(data[i + 1]! - 38) < 24 &&
        Math.abs(data[i + 2]! - 211) < 24
      )
        count++
    return count
  }, png.toString('base64'))
}

describe('a 200,000-row join in the browser host', () => {
  it(
    'shows every row in the table and on the map, pans the map with the mouse, and filters the table',
    { timeout: 300_000 },
    async () => {
      const page = await openApp(browser, host, undefined, 'Spatial analytics')
      await composePointJoin(page, COUNT)
      await page.getByRole('form', { name: 'Spatial join' }).getByRole('button', { name: 'Run join' }).click()

      const results = page.getByRole('region', { name: 'Results' })
      const count = results.getByRole('status').filter({ hasText: /\d rows?/ })
      await count.waitFor({ timeout: 180_000 })
      expect(rowCount(await count.textContent())).toBe(COUNT)
      const table = page.getByRole('table', { name: 'Join results' })
      // Virtual: the table says how many rows it has, and holds only those in view.
      expect(Number(await table.getAttribute('aria-rowcount'))).toBe(COUNT + 1)
      const bodyRows = await table.locator('tbody tr[aria-rowindex]').count()
      expect(bodyRows).toBeGreaterThan(3)
      expect(bodyRows).toBeLessThan(200)
      // The points are drawn (the app marks the first paint of the results layer with all its features).
      await expect.poll(() => markTime(page, 'geo:results-map-painted'), { timeout: 180_000 }).not.toBeNull()

      // Pan: drag the map with the mouse; what is under the mouse changes, the zoom does not.
      const map = page.getByRole('region', { name: 'Map' })
      const box = (await map.boundingBox())!
      const x = box.x + box.width * 0.45
      const y = box.y + box.height * 0.45
      const before = await cursorAt(page, x, y)
      const zoom = async () =>
        /Zoom: ([\d.]+)/.exec((await page.getByLabel('Status bar').textContent()) ?? '')?.[1]
      const zoomBefore = await zoom()
      const mapBefore = await map.screenshot()
      // The points cover their box (lon 68–97, lat 8–37: a good part of the map zoomed to them) in magenta.
      const shownAll = await magentaPixels(page, mapBefore)
      expect(shownAll).toBeGreaterThan(0.1 * box.width * box.height)
      // A drag as a person makes it; in headless Chromium the first drag after the page has been busy is at
      // times not taken as a pan, and a person drags again: at most three drags.
      for (let attempt = 0; attempt < 3; attempt++) {
        await page.mouse.move(x, y)
        await page.mouse.down()
        for (let i = 1; i <= 20; i++) await page.mouse.move(x + i * 10, y + i * 5)
        await page.mouse.up()
        const moved = await expect
          .poll(async () => (await map.screenshot()).equals(mapBefore), { timeout: 5_000 })
          .toBe(false)
          .then(
            () => true,
            () => false,
          )
        if (moved) break
      }
      expect((await map.screenshot()).equals(mapBefore)).toBe(false)
      await expect
        .poll(async () => (await cursorAt(page, x, y)).join(' '), { timeout: 30_000 })
        .not.toBe(before.join(' '))
      expect(await zoom()).toBe(zoomBefore)

      // Filter the table (run in a worker): names holding "p1999" — P1999, P19990…P19999, P199900…P199999.
      await results.getByRole('searchbox', { name: 'Filter results' }).fill('p1999')
      await expect.poll(() => count.textContent(), { timeout: 60_000 }).toMatch(/^111 rows shown of 200,000/)
      const names = await table.locator('tbody tr[aria-rowindex] td:nth-child(2)').allTextContents()
      expect(names.length).toBeGreaterThan(3)
      for (const name of names) expect(name.trim()).toMatch(/^P1999\d*$/)
      // The map shows the filtered rows only: a few scattered points, not the whole box.
      await expect
        .poll(async () => magentaPixels(page, await map.screenshot()), { timeout: 30_000 })
        .toBeLessThan(shownAll / 20)
      expect(await magentaPixels(page, await map.screenshot())).toBeGreaterThan(0)
      expect(pageProblems(page)).toEqual([])
      await page.context().close()
    },
  )
})
