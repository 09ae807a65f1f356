/// <reference lib="dom" />
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { openApp, openArea, pageProblems, useAppSession } from '../support/app'
import { saveScreenshot } from '../support/screenshots'

const session = useAppSession()

/** Where the map's centre is, read from the status bar with the mouse over it: [lon, lat]. */
async function mapCentre(page: Page): Promise<[number, number]> {
  const box = (await page.getByRole('region', { name: 'Map' }).boundingBox())!
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  const text = (await page.getByRole('contentinfo', { name: 'Status bar' }).textContent()) ?? ''
  const match = /lon (-?\d+\.\d+), lat (-?\d+\.\d+)/.exec(text)
  return match ? [Number(match[1]), Number(match[2])] : [NaN, NaN]
}

/** In the sample network's town (Gothenburg): the routing network and the simulated fleet. */
const inGothenburg = ([lon, lat]: [number, number]) => lon > 11.8 && lon < 12.2 && lat > 57.6 && lat < 57.8
const inIndia = ([lon, lat]: [number, number]) => lon > 68 && lon < 98 && lat > 6 && lat < 36

/** The bottom panel's tabs, none while the region is folded away. */
const bottomTabs = (page: Page) =>
  page.getByRole('tablist', { name: 'Bottom panels' }).getByRole('tab').allTextContents()

/** A screenshot for the README's gallery, without a tooltip of the control last used. */
async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
  await saveScreenshot(page, name)
}

/** The layers the legend over the map lists (none: no legend). */
const legendLayers = (page: Page) =>
  page
    .getByRole('region', { name: 'Legend', exact: true })
    .getByRole('list')
    .evaluateAll((lists) => lists.map((l) => l.getAttribute('aria-label')!.replace('Legend entries of ', '')))

describe('the first hour of a new analyst, in Chromium through the browser host', () => {
  it('opens each area with its data on the map, its own bottom tabs and a legend of what is in view', async () => {
    const page = await openApp(session.browser, session.host)
    const map = page.getByRole('region', { name: 'Map' })
    await map.waitFor()
    const zoomToIndia = page.getByRole('button', { name: 'Zoom to India' })
    // A session without a keychain says so in a banner once settings are read; set aside, as one would.
    await page.getByText(/web host/).waitFor()
    const aside = page.getByRole('button', { name: 'Set aside' })
    if ((await aside.count()) > 0) await aside.first().click()

    // Layers first: the map of India, the attribute table's tab, nothing over the map to hide it.
    await expect.poll(() => mapCentre(page).then(inIndia), { timeout: 20_000 }).toBe(true)
    await expect.poll(() => bottomTabs(page)).toEqual(['Attribute table'])
    expect(await legendLayers(page)).toEqual([])
    expect(await page.getByRole('region', { name: /^Drawn shapes/ }).count()).toBe(0)
    await shot(page, 'area-map.png')

    // Places has no bottom tab: the bottom panel folds away, its toggle has nothing to open.
    await openArea(page, 'Places')
    await expect.poll(() => bottomTabs(page)).toEqual([])
    expect(await page.getByRole('button', { name: 'Bottom panel' }).isDisabled()).toBe(true)
    await shot(page, 'area-places.png')

    // Routing: the map goes to the road network (the bundled sample, in Gothenburg), with a note on it.
    await openArea(page, 'Routing')
    const matrix = page.getByRole('region', { name: 'Distance matrix' })
    await expect.poll(() => mapCentre(page).then(inGothenburg), { timeout: 30_000 }).toBe(true)
    await expect
      .poll(() => matrix.getByRole('note', { name: 'Road network' }).textContent(), { timeout: 15_000 })
      .toContain(
        'Sample road network: Gothenburg (OpenStreetMap). Import an extract of your region with Routing → Import OSM extract… or `geo-analyst routing import`.',
      )
    expect(await bottomTabs(page)).toEqual(['Matrix'])
    // The offline basemap draws no roads: the network's extent is a layer, in the legend while in view.
    await expect.poll(() => legendLayers(page)).toEqual(['Road network areas'])
    await shot(page, 'area-routing.png')

    // A position placed outside the network is refused on the spot, where it was clicked, with the note.
    await zoomToIndia.click()
    await expect.poll(() => mapCentre(page).then(inIndia), { timeout: 15_000 }).toBe(true)
    await matrix.getByRole('button', { name: 'Add positions on the map' }).click()
    const box = (await map.boundingBox())!
    const click = { x: box.x + box.width * 0.5, y: box.y + box.height * 0.55 }
    await page.mouse.click(click.x, click.y)
    const refusal = page.getByRole('status', { name: 'Position not added' })
    await refusal
      .getByText(/^Not added: outside every road network\. Sample road network: Gothenburg/)
      .waitFor()
    const note = (await refusal.boundingBox())!
    // Just above the point clicked, centred on it.
    expect(Math.abs(note.x + note.width / 2 - click.x)).toBeLessThan(30)
    expect(click.y - (note.y + note.height)).toBeGreaterThanOrEqual(0)
    expect(click.y - (note.y + note.height)).toBeLessThan(40)
    expect(await matrix.getByRole('table', { name: 'Positions' }).count()).toBe(0)
    // Back on the network, a click places a position and the note goes.
    await page.getByRole('button', { name: 'Show on map: Sample network: Gothenburg' }).click()
    await expect.poll(() => mapCentre(page).then(inGothenburg), { timeout: 15_000 }).toBe(true)
    await page.mouse.click(box.x + box.width * 0.5, box.y + box.height * 0.5)
    await expect.poll(() => matrix.getByRole('table', { name: 'Positions' }).getByRole('row').count()).toBe(2)
    await expect.poll(() => refusal.getByText(/Not added/).count()).toBe(0)
    await matrix.getByRole('button', { name: 'Stop adding positions' }).click()

    // Fleet, opened with India in view: the map goes to its vehicles, and the legend lists them.
    await zoomToIndia.click()
    await expect.poll(() => mapCentre(page).then(inIndia), { timeout: 15_000 }).toBe(true)
    await openArea(page, 'Fleet')
    await expect.poll(() => mapCentre(page).then(inGothenburg), { timeout: 60_000 }).toBe(true)
    await expect.poll(() => legendLayers(page), { timeout: 30_000 }).toContain('Fleet (simulated)')
    expect(await bottomTabs(page)).toEqual(['Device', 'Alerts', 'Hardware'])
    await shot(page, 'area-fleet.png')

    // Spatial analytics: its own tabs; away from the vehicles the legend drops them, and lists a dataset
    // once it is on the map.
    await openArea(page, 'Spatial analytics')
    expect(await bottomTabs(page)).toEqual(['Results', 'Run history'])
    await zoomToIndia.click()
    await expect.poll(() => legendLayers(page), { timeout: 15_000 }).toEqual([])
    await page.getByRole('button', { name: 'Show india_states on map' }).click({ timeout: 30_000 })
    await expect.poll(() => legendLayers(page), { timeout: 30_000 }).toEqual(['india_states'])
    await shot(page, 'area-gis.png')

    // License plates: its viewer's tab only — no join results here.
    await openArea(page, 'License plates')
    expect(await bottomTabs(page)).toEqual(['Before / after'])
    expect(await page.getByRole('tab', { name: 'Results' }).count()).toBe(0)
    await shot(page, 'area-vision.png')

    expect(pageProblems(page)).toEqual([])
    await page.context().close()
  })
})
