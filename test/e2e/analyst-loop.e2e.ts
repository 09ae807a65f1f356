/// <reference lib="dom" />
import { describe, expect, it } from 'vitest'
import { analystLoop, readLargeResultByKeyboard } from '../support/analyst-loop'
import { openApp, useAppSession } from '../support/app'

/**
 * The analyst's loop in the browser host against the built-in local service and its sample workspace,
 * acted as a person would: by role and accessible name, with mouse and keyboard. The loop's steps are in
 * test/support/analyst-loop.ts, shared with the PostGIS workspace's loop (analyst-loop-postgis.e2e.ts).
 */

const session = useAppSession()

describe("the analyst's loop in the browser host", () => {
  it('draws a polygon, joins india_cities with it, sees rows and features, saves, exports, and keeps the drawing', async () => {
    const page = await openApp(session.browser, session.host, undefined, 'Spatial analytics')
    await analystLoop(page, { screenshots: true })
    await page.context().close()
  })

  it('reads a large result by keyboard: the table tells its size, and End reaches the last row of all', async () => {
    const page = await openApp(session.browser, session.host, undefined, 'Spatial analytics')
    await readLargeResultByKeyboard(page)
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
