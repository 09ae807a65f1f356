/// <reference lib="dom" />
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { seriousViolations } from '../support/axe'
import { openApp, openArea, pageProblems, useAppSession } from '../support/app'
import { saveScreenshot } from '../support/screenshots'

const session = useAppSession()

const layerList = (page: Page): Locator => page.getByRole('list', { name: 'Layers' })
/** The layers' names top to bottom (the list's own items, not their legends' entries). */
const layerNames = (page: Page): Promise<string[]> =>
  layerList(page).evaluate((list) => [...list.children].map((li) => li.getAttribute('aria-label') ?? ''))
const legendOf = (page: Page, title: string): Locator =>
  page.getByRole('tabpanel', { name: 'Layers' }).getByRole('list', { name: `Legend of ${title}` })

/** Width, height and whether the image has real content (many colours, not one flat fill), decoded by Chromium. */
async function inspectPng(
  page: Page,
  file: string,
): Promise<{ width: number; height: number; colours: number; flat: number }> {
  const base64 = readFileSync(file).toString('base64')
  return page.evaluate(async (data) => {
    const image = new Image()
    image.src = `data:image/png;base64,${data}`
    await image.decode()
    const canvas = document.createElement('canvas')
    canvas.width = image.naturalWidth
    canvas.height = image.naturalHeight
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!
    ctx.drawImage(image, 0, 0)
    const pixels = ctx.getImageData(0, 0, canvas.width, canvas.height).data
    const counts = new Map<string, number>()
    let total = 0
    for (let i = 0; i < pixels.length; i += 4 * 53) {
      const key = `${pixels[i]! >> 3},${pixels[i + 1]! >> 3},${pixels[i + 2]! >> 3}`
      counts.set(key, (counts.get(key) ?? 0) + 1)
      total++
    }
    const top = Math.max(...counts.values())
    return { width: canvas.width, height: canvas.height, colours: counts.size, flat: top / total }
  }, base64)
}

/** The share of pixels that differ between two screenshots of the same size (decoded by Chromium). */
async function differingShare(page: Page, a: Buffer, b: Buffer): Promise<number> {
  return page.evaluate(
    async ([x, y]) => {
      const read = async (data: string) => {
        const image = new Image()
        image.src = `data:image/png;base64,${data}`
        await image.decode()
        const canvas = document.createElement('canvas')
        canvas.width = image.naturalWidth
        canvas.height = image.naturalHeight
        const ctx = canvas.getContext('2d', { willReadFrequently: true })!
        ctx.drawImage(image, 0, 0)
        return ctx.getImageData(0, 0, canvas.width, canvas.height).data
      }
      const [p, q] = await Promise.all([read(x), read(y)])
      if (p.length !== q.length) return 1
      let differ = 0
      for (let i = 0; i < p.length; i += 4)
        if (Math.abs(p[i]! - q[i]!) + Math.abs(p[i + 1]! - q[i + 1]!) + Math.abs(p[i + 2]! - q[i + 2]!) > 6)
          differ++
      return differ / (p.length / 4)
    },
    [a.toString('base64'), b.toString('base64')] as const,
  )
}

describe('layers, symbology, map export and projects in the browser host', () => {
  // First in the file: the host has no last project yet, so nothing reopens while this test looks.
  it('refuses a project from a newer version with what to do, and changes nothing', async () => {
    const dir = path.join(session.host.dataDir, 'projects')
    mkdirSync(dir, { recursive: true })
    writeFileSync(
      path.join(dir, 'From the future.geoproject.json'),
      JSON.stringify({ format: 'geo-analyst-project', version: 7, layers: 'another shape' }),
    )
    const page = await openApp(session.browser, session.host)
    const panel = page.getByRole('tabpanel', { name: 'Layers' })
    await expect.poll(() => layerNames(page), { timeout: 30_000 }).toContain('Basemap')
    const before = await layerNames(page)
    await panel.getByRole('combobox', { name: 'Saved projects' }).selectOption('From the future')
    await panel.getByRole('button', { name: 'Open project', exact: true }).click()
    const alert = panel.getByRole('alert')
    await alert.filter({ hasText: 'saved by a newer version of Geo Analyst' }).waitFor()
    expect(await alert.textContent()).toMatch(/Update the app to open it\. Nothing was changed\./)
    expect(await layerNames(page)).toEqual(before)
    // A damaged file chosen from disk is refused the same way, the detail behind "Details".
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      panel.getByRole('button', { name: 'Open project file…' }).click(),
    ])
    await chooser.setFiles({
      name: 'broken.geoproject.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ format: 'geo-analyst-project', version: 1, title: 3 })),
    })
    await alert
      .filter({ hasText: 'broken.geoproject.json could not be opened: it is damaged or incomplete' })
      .waitFor()
    await alert.getByText('Details').click()
    await alert.getByText(/title: /).waitFor()
    expect(await layerNames(page)).toEqual(before)
    expect(await seriousViolations(page)).toEqual([])
    await page.context().close()
  })

  it('orders, fades and styles two datasets, exports the map, saves a project and finds it again', async () => {
    const page = await openApp(session.browser, session.host)

    // First start: the Layers panel says what to do next and takes the user there.
    const layersPanel = page.getByRole('tabpanel', { name: 'Layers' })
    await layersPanel.getByText('No layers on the map yet.').waitFor({ timeout: 30_000 })
    expect(await seriousViolations(page)).toEqual([])
    // Every area's side panel passes too — in a page of its own: opening an area may put that area's
    // layers on the map (the fleet goes live), and this test counts the layers.
    const tour = await openApp(session.browser, session.host)
    const tabs = tour.getByRole('navigation', { name: 'Activity bar' }).getByRole('tab')
    for (const name of await tabs.allTextContents()) {
      await openArea(tour, name.trim())
      await tour.getByRole('tabpanel', { name: name.trim() }).getByRole('button').first().waitFor()
      expect(await seriousViolations(tour), name).toEqual([])
    }
    await tour.context().close()
    await openArea(page, 'Layers')
    await layersPanel.getByRole('button', { name: 'Show a dataset' }).click()
    await page
      .getByRole('tabpanel', { name: 'Spatial analytics' })
      .getByRole('region', { name: 'Datasets' })
      .waitFor()

    // Two datasets on the map.
    await page.getByRole('button', { name: 'Show india_states on map' }).click()
    await page.getByRole('button', { name: 'Show india_cities on map' }).click()
    await openArea(page, 'Layers')
    await expect
      .poll(() => layerNames(page), { timeout: 30_000 })
      .toEqual(['india_cities', 'india_states', 'Basemap'])

    // Reorder by keyboard: the states' handle, ↑ — then back on top by dragging the cities' row.
    await page.getByRole('button', { name: 'Move india_states', exact: true }).focus()
    await page.keyboard.press('ArrowUp')
    await expect.poll(() => layerNames(page)).toEqual(['india_states', 'india_cities', 'Basemap'])
    await page.getByRole('status').filter({ hasText: 'india_states moved to position 1 of 2' }).waitFor()
    await layerList(page)
      .getByRole('listitem', { name: 'india_cities' })
      .dragTo(layerList(page).getByRole('listitem', { name: 'india_states' }), {
        targetPosition: { x: 40, y: 4 },
      })
    await expect.poll(() => layerNames(page)).toEqual(['india_cities', 'india_states', 'Basemap'])

    // The states at 50 % opacity, by keyboard on the slider; the map's states fade (cities hidden meanwhile,
    // by their visibility toggle, so only the states change under the pixels compared).
    const showCities = page.getByRole('button', { name: 'Show india_cities', exact: true })
    await showCities.click()
    expect(await showCities.getAttribute('aria-pressed')).toBe('false')
    const viewport = page.locator('[aria-label="Map"] .ol-viewport')
    await page.mouse.move(0, 0)
    const opaque = await viewport.screenshot({ animations: 'disabled' })
    const opacity = page.getByRole('slider', { name: 'Opacity of india_states' })
    await opacity.focus()
    for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowLeft')
    expect(await opacity.getAttribute('aria-valuetext')).toBe('50%')
    await page.mouse.move(0, 0)
    await expect
      .poll(async () => differingShare(page, opaque, await viewport.screenshot({ animations: 'disabled' })))
      .toBeGreaterThan(0.1)
    await showCities.click()
    expect(await showCities.getAttribute('aria-pressed')).toBe('true')

    // The cities graduated by population in five classes; the legend lists them low to high.
    await page.getByRole('button', { name: 'Style india_cities' }).click()
    const style = page.getByRole('region', { name: 'Style of india_cities' })
    // A heatmap first: its legend is the density ramp.
    await style.getByRole('combobox', { name: 'Symbol' }).selectOption('heatmap')
    await legendOf(page, 'india_cities').getByText('Density: low to high').waitFor()
    await style.getByRole('combobox', { name: 'Symbol' }).selectOption('graduated')
    await style.getByRole('combobox', { name: 'Field' }).selectOption('population')
    await style.getByRole('combobox', { name: 'Method' }).selectOption('quantile')
    await style.getByRole('spinbutton', { name: 'Classes' }).fill('5')
    await style.getByRole('spinbutton', { name: 'Classes' }).press('Enter')
    await style.getByRole('combobox', { name: 'Palette' }).selectOption('YlOrRd')
    const legend = legendOf(page, 'india_cities')
    await expect.poll(() => legend.getByRole('listitem').count()).toBe(5)
    const classes = await legend.getByRole('listitem').allTextContents()
    const ranges = classes.map((c) => c.split('–').map((n) => Number(n.trim().replace(/,/g, ''))))
    for (const [i, [low, high]] of ranges.entries()) {
      expect(low, classes[i]).toBeLessThan(high!)
      if (i > 0) expect(low).toBe(ranges[i - 1]![1])
    }
    expect(ranges[4]![1]).toBe(12_691_836) // the largest population of india_cities (Mumbai)
    const mapLegend = page.getByRole('region', { name: 'Legend', exact: true })
    expect(
      await mapLegend
        .getByRole('list', { name: 'Legend entries of india_cities' })
        .getByRole('listitem')
        .allTextContents(),
    ).toEqual(classes)
    expect(await seriousViolations(page)).toEqual([])
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    await saveScreenshot(page, 'layers.png')

    // Export the map as PNG: a real image of the page's size, not a blank one.
    await page.getByRole('button', { name: 'Export map' }).first().click()
    const dialog = page.getByRole('dialog', { name: 'Export map' })
    await dialog.getByRole('textbox', { name: 'Title' }).fill('Cities of India by population')
    await dialog.getByRole('radio', { name: 'PNG image' }).check()
    await dialog.getByRole('combobox', { name: 'Size' }).selectOption('A4')
    await dialog.getByRole('combobox', { name: 'Resolution (DPI)' }).selectOption('96')
    expect(await seriousViolations(page)).toEqual([])
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      dialog.getByRole('button', { name: 'Export PNG' }).click(),
    ])
    expect(download.suggestedFilename()).toBe('Cities of India by population.png')
    const file = (await download.path())!
    const bytes = readFileSync(file)
    expect(bytes.subarray(1, 4).toString()).toBe('PNG')
    expect(bytes.length).toBeGreaterThan(50_000)
    const png = await inspectPng(page, file)
    expect([png.width, png.height]).toEqual([1123, 794]) // A4 landscape at 96 DPI
    expect(png.colours).toBeGreaterThan(40)
    expect(png.flat).toBeLessThan(0.8)
    await dialog
      .getByRole('status')
      .filter({ hasText: /^Exported / })
      .waitFor()
    await page.keyboard.press('Escape')

    // Save the project, reload: the same layers, order, opacity and style.
    await layersPanel.getByRole('textbox', { name: 'Project name' }).fill('Cities study')
    await layersPanel.getByRole('button', { name: 'Save project' }).click()
    await layersPanel.getByRole('status').filter({ hasText: 'Saved project Cities study.' }).waitFor()
    await page.reload()
    await expect
      .poll(() => layerNames(page), { timeout: 30_000 })
      .toEqual(['india_cities', 'india_states', 'Basemap'])
    expect(
      await page.getByRole('slider', { name: 'Opacity of india_states' }).getAttribute('aria-valuetext'),
    ).toBe('50%')
    await expect
      .poll(() => legendOf(page, 'india_cities').getByRole('listitem').allTextContents())
      .toEqual(classes)

    // Remove the cities from the map; opening the project brings them back with their style.
    await page.getByRole('button', { name: 'Remove india_cities from map' }).click()
    await expect.poll(() => layerNames(page)).toEqual(['india_states', 'Basemap'])
    await layersPanel.getByRole('combobox', { name: 'Saved projects' }).selectOption('Cities study')
    await layersPanel.getByRole('button', { name: 'Open project', exact: true }).click()
    await expect
      .poll(() => layerNames(page), { timeout: 30_000 })
      .toEqual(['india_cities', 'india_states', 'Basemap'])
    await expect
      .poll(() => legendOf(page, 'india_cities').getByRole('listitem').allTextContents())
      .toEqual(classes)
    expect(pageProblems(page)).toEqual([])
    await page.context().close()

    // A fresh start with nothing kept (a new profile of the browser) reopens the last project.
    const fresh = await openApp(session.browser, session.host)
    await expect
      .poll(() => layerNames(fresh), { timeout: 30_000 })
      .toEqual(['india_cities', 'india_states', 'Basemap'])
    expect(
      await fresh.getByRole('slider', { name: 'Opacity of india_states' }).getAttribute('aria-valuetext'),
    ).toBe('50%')
    await expect
      .poll(() => legendOf(fresh, 'india_cities').getByRole('listitem').allTextContents())
      .toEqual(classes)
    await fresh.getByRole('heading', { name: 'Project: Cities study' }).waitFor()
    await fresh.context().close()
  })
})
