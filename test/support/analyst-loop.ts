/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { readFileSync } from 'node:fs'
import type { Locator, Page } from 'playwright-core'
import { expect } from 'vitest'
import { pageProblems } from './app'
import { waitForSave } from './drawings'
import { saveScreenshot } from './screenshots'

/**
 * The analyst's loop acted as a person would (roles and accessible names, mouse and keyboard on the real
 * map), as steps any browser host can be put through: the folder workspace's e2e and the PostGIS one run
 * the same steps over the same data.
 */

/** The results layer's colour (#c026d3) and the highlight of the selected row's feature (#f59e0b). */
export const RESULTS_RGB = [192, 38, 211] as const
export const HIGHLIGHT_RGB = [245, 158, 11] as const

/** Map pixels (CSS px, page coordinates) close to a colour, sampled over every map canvas. */
export async function pixelsOf(page: Page, rgb: readonly number[]): Promise<Array<[number, number]>> {
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
export async function drawPolygon(page: Page, fractions: Array<[number, number]>): Promise<void> {
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
export async function tableRows(table: Locator): Promise<string[][]> {
  return table
    .getByRole('row')
    .evaluateAll((rows) =>
      rows
        .map((r) => [...r.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim()))
        .filter((cells) => cells.length > 0),
    )
}

export function shownCount(text: string): number {
  const match = /^([\d,]+) rows?/.exec(text.trim())
  return match ? Number(match[1]!.replace(/,/g, '')) : NaN
}

export interface ExportedCollection {
  type: string
  features: Array<{
    type: string
    geometry: { type: string; coordinates: number[] }
    properties: Record<string, string>
  }>
}

/** Positive when the ring runs counter-clockwise (lon/lat plane). */
export function signedArea(ring: number[][]): number {
  let sum = 0
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
    sum += (ring[j]![0]! - ring[i]![0]!) * (ring[j]![1]! + ring[i]![1]!)
  return sum / 2
}

export async function downloadJson(
  page: Page,
  button: Locator,
): Promise<{ name: string; json: ExportedCollection }> {
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()])
  const path = await download.path()
  return { name: download.suggestedFilename(), json: JSON.parse(readFileSync(path!, 'utf8')) }
}

/** What the loop did, for checks of the workspace behind the host. */
export interface LoopOutcome {
  /** The rows the join found (the Results count). */
  total: number
  /** The name the results were saved under. */
  saved: string
  /** The rows shown after filtering, and the features the GeoJSON export of them held. */
  shown: number
  exported: number
  /** The drawn polygon as the app exported it (RFC 7946, lon/lat). */
  drawn: { type: string; coordinates: number[][][] }
}

/**
 * Draw a polygon over central-west India, join india_cities with it (Intersects), see rows and features,
 * select a feature on the map, save the results as a new dataset (listed; the same name again refused before
 * sending), filter and export GeoJSON (every shown row, in order), export the drawings, reload and find the
 * drawing kept. `page` is the app opened on "Spatial analytics" over a workspace holding the sample data.
 */
export async function analystLoop(page: Page, options: { screenshots?: boolean } = {}): Promise<LoopOutcome> {
  const screenshot = (name: string) => (options.screenshots ? saveScreenshot(page, name) : undefined)
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
  await screenshot('loop-compose.png')

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
  await screenshot('loop-results.png')

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
  const polygon = drawings.json.features[0]!.geometry as unknown as LoopOutcome['drawn']
  expect(polygon.type).toBe('Polygon')
  const ring = polygon.coordinates[0]!
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
  return { total, saved, shown, exported: fc.features.length, drawn: polygon }
}

/**
 * Join india_cities with india_states (the form's default operator, Intersects) and read the large result
 * by keyboard: the table tells its size, End reaches the last row of all, Home the first, PageDown moves on,
 * Enter selects. Returns the number of rows the join found.
 */
export async function readLargeResultByKeyboard(page: Page): Promise<number> {
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
  return total
}
