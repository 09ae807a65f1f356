/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { readFileSync } from 'node:fs'
import type { Locator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { openApp, pageProblems, useAppSession } from '../support/app'
import { waitForSave } from '../support/drawings'
import { saveScreenshot } from '../support/screenshots'

/**
 * The analyst's loop in the browser host against the built-in local service and its sample workspace,
 * acted as a person would: by role and accessible name, with mouse and keyboard.
 */

const session = useAppSession()

/** The results layer's colour (#c026d3) and the highlight of the selected row's feature (#f59e0b). */
const RESULTS_RGB = [192, 38, 211] as const
const HIGHLIGHT_RGB = [245, 158, 11] as const

/** Map pixels (CSS px, page coordinates) close to a colour, sampled over every map canvas. */
async function pixelsOf(page: Page, rgb: readonly number[]): Promise<Array<[number, number]>> {
  return page.evaluate((target) => {
    const found: Array<[number, number]> = []
    for (const canvas of document.querySelectorAll<HTMLCanvasElement>('[aria-label="Map"] canvas')) {
      const ctx = canvas.getContext('2d', { willReadFrequently: true })
      if (!ctx || canvas.width === 0) continue
      const rect = canvas.getBoundingClientRect()
      const scale = canvas.width / rect.width
      const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data
      for (let y = 0; y < canvas.height; y += 2) {
        for (let x = 0; x < canvas.width; x += 2) {
          const i = (y * canvas.width + x) * 4
          if (
            (data[i + 3] ?? 0) > 200 &&
            Math.abs((data[i] ?? 0) - target[0]!) < 24 &&
            Math.abs((data[i + 1] ?? 0) - target[1]!) < 24 &&
            Math.abs((data[i + 2] ?? 0) - target[2]!) < 24
          ) {
            const px = rect.left + x / scale
            const py = rect.top + y / scale
            // Only pixels a person can click: not under the toolbar, lists or buttons over the map.
            if (document.elementFromPoint(px, py)?.tagName === 'CANVAS') found.push([px, py])
          }
        }
      }
    }
    return found
  }, rgb)
}

/** Draw a polygon by clicking its vertices on the map (fractions of the map's box), finishing on the first. */
async function drawPolygon(page: Page, fractions: Array<[number, number]>): Promise<void> {
  await page
    .getByRole('toolbar', { name: 'Drawing tools' })
    .getByRole('button', { name: 'Draw polygon' })
    .click()
  const box = (await page.getByRole('region', { name: 'Map' }).boundingBox())!
  const at = ([fx, fy]: [number, number]) => [box.x + box.width * fx, box.y + box.height * fy] as const
  for (const f of fractions) {
    const [x, y] = at(f)
    await page.mouse.click(x, y)
  }
  const [x0, y0] = at(fractions[0]!)
  await page.mouse.click(x0, y0)
  // Leave the drawing mode (Escape), so later clicks on the map select instead of drawing.
  await page.keyboard.press('Escape')
  const tool = page.getByRole('button', { name: 'Draw polygon' })
  await expect.poll(() => tool.getAttribute('aria-pressed')).toBe('false')
}

/** The table's body rows (rows of cells, not the header row) as arrays of cell texts. */
async function tableRows(table: Locator): Promise<string[][]> {
  return table
    .getByRole('row')
    .evaluateAll((rows) =>
      rows
        .map((r) => [...r.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim()))
        .filter((cells) => cells.length > 0),
    )
}

function shownCount(text: string): number {
  const match = /^([\d,]+) rows?/.exec(text.trim())
  return match ? Number(match[1]!.replace(/,/g, '')) : NaN
}

interface ExportedCollection {
  type: string
  features: Array<{
    type: string
    geometry: { type: string; coordinates: number[] }
    properties: Record<string, string>
  }>
}

/** Positive when the ring runs counter-clockwise (lon/lat plane). */
function signedArea(ring: number[][]): number {
  let sum = 0
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
    sum += (ring[j]![0]! - ring[i]![0]!) * (ring[j]![1]! + ring[i]![1]!)
  return sum / 2
}

async function downloadJson(
  page: Page,
  button: Locator,
): Promise<{ name: string; json: ExportedCollection }> {
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()])
  const path = await download.path()
  return { name: download.suggestedFilename(), json: JSON.parse(readFileSync(path!, 'utf8')) }
}

describe("the analyst's loop in the browser host", () => {
  it('draws a polygon, joins india_cities with it, sees rows and features, saves, exports, and keeps the drawing', async () => {
    const page = await openApp(session.browser, session.host, undefined, 'Spatial analytics')
    const datasets = page.getByRole('list', { name: 'Datasets' })
    await datasets.getByRole('listitem', { name: 'india_cities' }).waitFor({ timeout: 30_000 })

    // Draw a polygon over central-west India by clicking on the map.
    await drawPolygon(page, [
      [0.3, 0.35],
      [0.5, 0.33],
      [0.52, 0.6],
      [0.32, 0.62],
    ])
    const shapes = page.getByRole('list', { name: 'Drawn shapes' })
    await expect.poll(() => shapes.getByRole('listitem').count(), { timeout: 10_000 }).toBe(1)
    expect(await shapes.getByRole('listitem').first().textContent()).toMatch(/Polygon 1 · [\d,.]+ km²/)

    // Compose: Intersects against india_cities with the drawn shape.
    const form = page.getByRole('form', { name: 'Spatial join' })
    await form.getByRole('combobox', { name: 'Query type' }).selectOption('spatialOperation')
    await form.getByRole('combobox', { name: 'Source dataset' }).fill('india_cities')
    await form.getByRole('combobox', { name: 'Operator' }).selectOption('Intersects')
    await form.getByRole('textbox', { name: 'Selection (source)' }).fill('name,population,geom')
    await form.getByRole('checkbox', { name: 'Use drawn shapes' }).check()
    await form.getByRole('radio', { name: 'All drawn shapes' }).check()
    const preview = form.getByRole('region', { name: 'Request preview' })
    await expect
      .poll(() => preview.textContent(), { timeout: 10_000 })
      .toMatch(/POST http:\/\/127\.0\.0\.1:\d+\/mgis\/query_apply\/join/)
    expect(await preview.textContent()).toContain('userGeom')
    expect(await preview.textContent()).toContain('name,population,geom')
    expect(await preview.textContent()).toContain('"Polygon"')
    await preview.scrollIntoViewIfNeeded()
    await saveScreenshot(page, 'loop-compose.png')

    // Run it: rows in "Join results", features on the map.
    const run = form.getByRole('button', { name: 'Run join' })
    expect(await run.isEnabled()).toBe(true)
    await run.click()
    const results = page.getByRole('region', { name: 'Results' })
    const count = results.getByRole('status').filter({ hasText: /\d rows?/ })
    await count.waitFor({ timeout: 30_000 })
    const total = shownCount((await count.textContent()) ?? '')
    expect(total).toBeGreaterThan(0)
    const table = page.getByRole('table', { name: 'Join results' })
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(
      expect.arrayContaining(
        ['name (source)', 'population (source)', 'geom (source)'].map((h) => expect.stringContaining(h)),
      ),
    )
    await expect.poll(async () => (await tableRows(table)).length).toBeGreaterThan(0)
    expect(await results.getByLabel('Results summary').textContent()).toMatch(/geometries · extent/)
    await results.getByRole('button', { name: 'Zoom to results' }).click()
    await expect
      .poll(async () => (await pixelsOf(page, RESULTS_RGB)).length, { timeout: 10_000 })
      .toBeGreaterThan(20)

    // Clicking a feature selects its row; the selected row's feature is highlighted.
    const visible = await pixelsOf(page, RESULTS_RGB)
    const [px, py] = visible[Math.floor(visible.length / 2)]!
    await page.mouse.click(px + 1, py + 1)
    await expect.poll(() => table.getByRole('row', { selected: true }).count(), { timeout: 5000 }).toBe(1)
    await expect
      .poll(async () => (await pixelsOf(page, HIGHLIGHT_RGB)).length, { timeout: 5000 })
      .toBeGreaterThan(5)
    await saveScreenshot(page, 'loop-results.png')

    // Save it as a new dataset and find it in the Datasets list.
    const saved = `loop_cities_${Date.now().toString(36)}`
    await results.getByRole('button', { name: 'Save as dataset' }).click()
    await results.getByRole('textbox', { name: 'Saved dataset name' }).fill(saved)
    await results.getByRole('button', { name: 'Save results as dataset' }).click()
    await results.getByText(`Saved as dataset "${saved}".`).waitFor({ timeout: 30_000 })
    await datasets.getByRole('listitem', { name: saved }).waitFor({ timeout: 15_000 })
    // The same name again is explained before anything is sent.
    await results.getByRole('button', { name: 'Save as dataset' }).click()
    await results.getByRole('textbox', { name: 'Saved dataset name' }).fill(saved)
    await results.getByText(/is taken: a dataset named/).waitFor()
    expect(await results.getByRole('button', { name: 'Save results as dataset' }).isDisabled()).toBe(true)
    await results.getByRole('button', { name: 'Cancel saving' }).click()

    // Filter so every row the table shows is in the page, then export GeoJSON and compare.
    const filter = results.getByRole('searchbox', { name: 'Filter results' })
    for (const text of ['pur', 'ab', 'ar', 'a']) {
      await filter.fill(text)
      const shown = shownCount((await count.textContent()) ?? '')
      if (shown > 0 && shown < 100) break
    }
    const shown = shownCount((await count.textContent()) ?? '')
    expect(shown).toBeGreaterThan(0)
    expect(shown).toBeLessThan(100)
    await table.getByRole('columnheader', { name: /population \(source\)/ }).click()
    const rows = await tableRows(table)
    expect(rows).toHaveLength(shown)
    const exported = await downloadJson(page, results.getByRole('button', { name: 'Export GeoJSON' }))
    expect(exported.name).toMatch(/\.geojson$/)
    const fc = exported.json
    expect(fc.type).toBe('FeatureCollection')
    expect(fc.features).toHaveLength(shown)
    fc.features.forEach((feature, i) => {
      expect(feature.type).toBe('Feature')
      expect(feature.geometry.type).toBe('Point')
      const [lon, lat] = feature.geometry.coordinates
      expect(lon).toBeGreaterThanOrEqual(-180)
      expect(lon).toBeLessThanOrEqual(180)
      expect(lat).toBeGreaterThanOrEqual(-90)
      expect(lat).toBeLessThanOrEqual(90)
      expect(feature.properties).toEqual({
        'name (source)': rows[i]![0],
        'population (source)': rows[i]![1],
      })
    })
    // Drawn shapes export as RFC 7946 too: the outer ring follows the right-hand rule.
    const drawings = await downloadJson(page, results.getByRole('button', { name: 'Export drawings' }))
    expect(drawings.json.features).toHaveLength(1)
    const polygon = drawings.json.features[0]!.geometry
    expect(polygon.type).toBe('Polygon')
    const ring = (polygon.coordinates as unknown as number[][][])[0]!
    expect(signedArea(ring)).toBeGreaterThan(0)
    for (const [lon, lat] of ring) expect(Math.abs(lon!) <= 180 && Math.abs(lat!) <= 90).toBe(true)

    // Drawings survive a reload, once the app has saved them.
    await waitForSave(page, 1)
    await page.reload()
    await expect
      .poll(() => page.getByRole('list', { name: 'Drawn shapes' }).getByRole('listitem').count(), {
        timeout: 15_000,
      })
      .toBe(1)
    expect(pageProblems(page)).toEqual([])
    await page.context().close()
  })

  it('reads a large result by keyboard: the table tells its size, and End reaches the last row of all', async () => {
    const page = await openApp(session.browser, session.host, undefined, 'Spatial analytics')
    await page
      .getByRole('list', { name: 'Datasets' })
      .getByRole('listitem', { name: 'india_cities' })
      .waitFor({ timeout: 30_000 })
    const form = page.getByRole('form', { name: 'Spatial join' })
    await form.getByRole('combobox', { name: 'Source dataset' }).fill('india_cities')
    await form.getByRole('combobox', { name: 'Reference dataset' }).fill('india_states')
    await form.getByRole('textbox', { name: 'Selection (source)' }).fill('name')
    await form.getByRole('button', { name: 'Run join' }).click()
    const results = page.getByRole('region', { name: 'Results' })
    const count = results.getByRole('status').filter({ hasText: /\d rows?/ })
    await count.waitFor({ timeout: 30_000 })
    const total = shownCount((await count.textContent()) ?? '')
    expect(total).toBeGreaterThan(1000)

    // Only the rows in view are in the page, but the table says how many there are and where each is.
    const table = page.getByRole('table', { name: 'Join results' })
    expect(Number(await table.getAttribute('aria-rowcount'))).toBe(total + 1)
    const rows = table.getByRole('row')
    expect(await rows.count()).toBeLessThan(100)
    const focused = page.locator(':focus')
    await rows.nth(1).click()
    expect(await focused.getAttribute('aria-rowindex')).toBe('2')
    await page.keyboard.press('End')
    await expect.poll(() => focused.getAttribute('aria-rowindex')).toBe(String(total + 1))
    expect(await focused.isVisible()).toBe(true)
    await page.keyboard.press('Home')
    await expect.poll(() => focused.getAttribute('aria-rowindex')).toBe('2')
    await page.keyboard.press('PageDown')
    await expect.poll(async () => Number(await focused.getAttribute('aria-rowindex'))).toBeGreaterThan(3)
    await page.keyboard.press('Enter')
    expect(await table.getByRole('row', { selected: true }).getAttribute('aria-rowindex')).toBe(
      await focused.getAttribute('aria-rowindex'),
    )
    expect(pageProblems(page)).toEqual([])
    await page.context().close()
  })

  it('DWithin without a distance shows the rule and sends nothing', async () => {
    const page = await openApp(session.browser, session.host, undefined, 'Spatial analytics')
    const joins: string[] = []
    page.on('request', (r) => {
      if (r.url().includes('/api/op/gis.join')) joins.push(r.url())
    })
    await page
      .getByRole('list', { name: 'Datasets' })
      .getByRole('listitem', { name: 'india_cities' })
      .waitFor({ timeout: 30_000 })
    // The runs so far, from the Run history tab, once it has loaded (a list of runs, or none yet).
    await page
      .getByRole('tablist', { name: 'Bottom panels' })
      .getByRole('tab', { name: 'Run history' })
      .click()
    const history = page.getByRole('region', { name: 'Run history' })
    await history.getByRole('list', { name: 'Runs' }).or(history.getByText('No runs yet.')).waitFor()
    const before = await history.getByRole('listitem').count()
    const form = page.getByRole('form', { name: 'Spatial join' })
    await form.getByRole('combobox', { name: 'Source dataset' }).fill('india_cities')
    await form.getByRole('combobox', { name: 'Reference dataset' }).fill('india_states')
    await form.getByRole('combobox', { name: 'Operator' }).selectOption('DWithin')
    const distance = form.getByRole('textbox', { name: 'Distance' })
    await expect.poll(() => distance.getAttribute('aria-invalid')).toBe('true')
    const describedBy = (await distance.getAttribute('aria-describedby'))!
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toContain(
      'is required when operator is DWithin',
    )
    expect(await form.getByRole('button', { name: 'Run join' }).isDisabled()).toBe(true)
    // Enter in a field submits the form as a keyboard user would: still nothing is sent. A request the
    // Enter would have caused goes out before the datasets refresh clicked after it.
    await distance.focus()
    await page.keyboard.press('Enter')
    await Promise.all([
      page.waitForRequest((r) => r.url().includes('/api/op/gis.layers')),
      page.getByRole('button', { name: 'Refresh datasets' }).click(),
    ])
    expect(joins).toEqual([])
    expect(await history.getByRole('listitem').count()).toBe(before)
    await page.context().close()
  })

  it('cancels a long run', async () => {
    const page = await openApp(session.browser, session.host, undefined, 'Spatial analytics')
    const datasets = page.getByRole('list', { name: 'Datasets' })
    await datasets.getByRole('listitem', { name: 'india_cities' }).waitFor({ timeout: 30_000 })
    // A generated 200,000-point dataset, imported through the Datasets panel's file input.
    const name = `many_points_${Date.now().toString(36)}`
    let seed = 42
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648
    const features: string[] = []
    for (let i = 0; i < 200_000; i++) {
      const lon = (68 + random() * 29).toFixed(5)
      const lat = (8 + random() * 29).toFixed(5)
      features.push(
        `{"type":"Feature","properties":{"n":${i}},"geometry":{"type":"Point","coordinates":[${lon},${lat}]}}`,
      )
    }
    const buffer = Buffer.from(`{"type":"FeatureCollection","features":[${features.join(',')}]}`)
    await page
      .getByLabel('Dataset file to import')
      .setInputFiles({ name: `${name}.geojson`, mimeType: 'application/geo+json', buffer })
    await datasets.getByRole('listitem', { name }).waitFor({ timeout: 90_000 })

    const form = page.getByRole('form', { name: 'Spatial join' })
    await form.getByRole('combobox', { name: 'Source dataset' }).fill(name)
    await form.getByRole('combobox', { name: 'Reference dataset' }).fill('india_states')
    await form.getByRole('combobox', { name: 'Operator' }).selectOption('DWithin')
    await form.getByRole('textbox', { name: 'Distance' }).fill('3000')
    await form.getByRole('combobox', { name: 'Distance unit' }).selectOption('km')
    await form.getByRole('button', { name: 'Run join' }).click()
    const progress = form.getByRole('progressbar', { name: 'Join progress' })
    await progress.waitFor({ timeout: 5000 })
    // The run goes on, its elapsed time counting, until it is cancelled.
    await expect
      .poll(async () =>
        Number(/(\d+\.\d) s$/.exec((await progress.getAttribute('aria-valuetext')) ?? '')?.[1]),
      )
      .toBeGreaterThanOrEqual(0.5)
    expect(await progress.isVisible()).toBe(true)
    await form.getByRole('button', { name: 'Cancel run' }).click()
    await form.getByText(/Run cancelled after \d+\.\d s/).waitFor({ timeout: 10_000 })
    expect(await progress.count()).toBe(0)
    expect(await form.getByRole('button', { name: 'Run join' }).isEnabled()).toBe(true)
    expect(
      await page
        .getByRole('alert')
        .filter({ hasText: /Run join|failure|failed/ })
        .count(),
    ).toBe(0)
    await page.context().close()
  })
})
