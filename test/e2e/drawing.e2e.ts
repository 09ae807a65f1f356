/// <reference lib="dom" />
import type { Locator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { openApp, pageProblems, useAppSession } from '../support/app'
import { savedDrawings, waitForSave } from '../support/drawings'
import { saveScreenshot } from '../support/screenshots'

const session = useAppSession()

interface MapFrame {
  /** A pixel on the page at a fraction of the map's width and height. */
  at(fx: number, fy: number): { x: number; y: number }
}

/** The app opened with its map laid out; drawing positions are fractions of the map's box. */
async function openMap(page: Page): Promise<MapFrame> {
  const map = page.getByRole('region', { name: 'Map' })
  await map.waitFor()
  await page.locator('[aria-label="Map"] canvas').first().waitFor()
  const box = (await map.boundingBox())!
  return { at: (fx, fy) => ({ x: box.x + box.width * fx, y: box.y + box.height * fy }) }
}

async function click(page: Page, p: { x: number; y: number }): Promise<void> {
  await page.mouse.click(p.x, p.y)
}

const shapes = (page: Page): Locator => page.getByRole('list', { name: 'Drawn shapes' }).getByRole('listitem')

/** Click the vertices in order, double-click the last one to finish, and see the polygon listed. */
async function drawPolygon(page: Page, vertices: Array<{ x: number; y: number }>): Promise<void> {
  const before = await shapes(page).count()
  const tool = page.getByRole('button', { name: 'Draw polygon' })
  await tool.click()
  for (const v of vertices.slice(0, -1)) await click(page, v)
  const last = vertices[vertices.length - 1]!
  await page.mouse.dblclick(last.x, last.y)
  await expect.poll(() => shapes(page).count()).toBe(before + 1)
  await tool.click()
  await expect.poll(() => tool.getAttribute('aria-pressed')).toBe('false')
}

/** Once the app shows the drawings the host kept (it loads them on start), clear them. */
async function clearDrawings(page: Page): Promise<void> {
  const kept = (await savedDrawings(page))?.length ?? 0
  await expect.poll(() => shapes(page).count()).toBe(kept)
  const clear = page.getByRole('button', { name: 'Clear drawings' })
  if (kept > 0) await clear.click()
  await expect.poll(() => shapes(page).count()).toBe(0)
  await waitForSave(page, 0)
}

describe('drawing on the map in the browser host', () => {
  it('draws a polygon by clicking, undoes and redoes it, flags a bow-tie, and keeps both after a reload', async () => {
    const page = await openApp(session.browser, session.host, undefined, 'Spatial analytics')
    const map = await openMap(page)
    await clearDrawings(page)

    await drawPolygon(page, [map.at(0.55, 0.45), map.at(0.7, 0.45), map.at(0.7, 0.7), map.at(0.55, 0.7)])
    const polygon = shapes(page).filter({ hasText: /^\s*Polygon 1 · [\d,.]+ km²\s*$/ })
    await expect.poll(() => polygon.count()).toBe(1)
    const label = (await polygon.getAttribute('aria-label'))!
    // Several hundred kilometres across at this zoom: tens of thousands of km².
    expect(Number(/· ([\d,.]+) km²/.exec(label)![1]!.replace(/,/g, ''))).toBeGreaterThan(1000)

    await page.keyboard.press('Control+z')
    await expect.poll(() => shapes(page).count()).toBe(0)
    await page.keyboard.press('Control+Shift+z')
    await expect.poll(() => polygon.count()).toBe(1)

    // A bow-tie: its second edge crosses its fourth.
    await drawPolygon(page, [map.at(0.8, 0.4), map.at(0.9, 0.6), map.at(0.9, 0.4), map.at(0.8, 0.6)])
    const alert = page.getByRole('alert').filter({ hasText: /Polygon 2 crosses itself/ })
    await alert.waitFor()
    await expect.poll(() => shapes(page).count()).toBe(2)

    await waitForSave(page, 2)
    await page.reload()
    await openMap(page)
    await expect.poll(() => shapes(page).count()).toBe(2)
    expect(await shapes(page).first().getAttribute('aria-label')).toBe(label)
    await page
      .getByRole('alert')
      .filter({ hasText: /Polygon 2 crosses itself/ })
      .waitFor()
    expect(pageProblems(page)).toEqual([])
    await page.context().close()
  })

  it('draws a rectangle and a 64-vertex circle, then selects, moves and deletes by mouse and keyboard', async () => {
    const page = await openApp(session.browser, session.host, undefined, 'Spatial analytics')
    const map = await openMap(page)
    await clearDrawings(page)

    await page.getByRole('button', { name: 'Draw rectangle' }).click()
    await click(page, map.at(0.5, 0.4))
    await click(page, map.at(0.6, 0.55))
    await page.getByRole('button', { name: 'Draw circle' }).click()
    await click(page, map.at(0.8, 0.5))
    await page.mouse.move(map.at(0.85, 0.5).x, map.at(0.85, 0.5).y, { steps: 5 })
    // The sketch is measured while it is drawn (a label on the canvas); finish it with a second click.
    await click(page, map.at(0.85, 0.5))
    await expect.poll(() => shapes(page).count()).toBe(2)
    expect(await shapes(page).nth(0).getAttribute('aria-label')).toMatch(/^Rectangle 1 · [\d,.]+ km²$/)
    expect(await shapes(page).nth(1).getAttribute('aria-label')).toMatch(
      /^Circle 1 · r [\d,.]+ km · [\d,.]+ km²$/,
    )
    await waitForSave(page, 2)
    const [rectangle, circle] = (await savedDrawings(page))!
    expect(circle!.geometry.coordinates[0]).toHaveLength(65)
    expect(circle!.properties).toMatchObject({ shape: 'circle', vertices: 64 })

    // Select the rectangle by clicking inside it, drag it, and the move is saved as WGS84 coordinates.
    await page.getByRole('button', { name: 'Select and edit' }).click()
    await click(page, map.at(0.55, 0.47))
    await expect.poll(() => shapes(page).nth(0).getByRole('button').getAttribute('aria-pressed')).toBe('true')
    await page.mouse.move(map.at(0.55, 0.47).x, map.at(0.55, 0.47).y)
    await page.mouse.down()
    await page.mouse.move(map.at(0.45, 0.47).x, map.at(0.45, 0.47).y, { steps: 8 })
    await page.mouse.up()
    await expect
      .poll(async () => (await savedDrawings(page))?.[0]?.geometry.coordinates[0]?.[0]?.[0] ?? NaN, {
        timeout: 10_000,
      })
      .toBeLessThan(rectangle!.geometry.coordinates[0]![0]![0]! - 1)

    await page.keyboard.press('Delete')
    await expect.poll(() => shapes(page).count()).toBe(1)
    expect(await shapes(page).first().getAttribute('aria-label')).toMatch(/^Circle 1 · /)
    // The list is keyboard-operable: Tab to the circle's entry, select it with Enter, delete it.
    await shapes(page).first().getByRole('button').focus()
    await page.keyboard.press('Enter')
    await page.getByRole('button', { name: 'Delete selected' }).click()
    await expect.poll(() => shapes(page).count()).toBe(0)
    await page.keyboard.press('Control+y')
    await page.keyboard.press('Control+z')
    await expect.poll(() => shapes(page).count()).toBe(1)
    await page.context().close()
  })

  it('shows india_states on the map with its legend', async () => {
    const page = await openApp(session.browser, session.host, undefined, 'Spatial analytics')
    await openMap(page)
    const datasets = page.getByRole('list', { name: 'Datasets' })
    await datasets.getByRole('listitem', { name: 'india_states' }).waitFor()
    const show = page.getByRole('button', { name: 'Show india_states on map' })
    await show.click()
    await expect.poll(() => show.getAttribute('aria-pressed')).toBe('true')
    // The legend over the map follows: one entry, the layer's single symbol.
    const legend = page
      .getByRole('region', { name: 'Legend', exact: true })
      .getByRole('list', { name: 'Legend entries of india_states' })
    await legend.getByRole('listitem').filter({ hasText: 'india_states' }).waitFor()
    expect(await legend.getByRole('listitem').count()).toBe(1)
    await show.click()
    await expect.poll(() => legend.count()).toBe(0)
    await page.context().close()
  })

  it('imports a file into the local workspace with "Import file", lists it and shows it on the map', async () => {
    const page = await openApp(session.browser, session.host, undefined, 'Spatial analytics')
    await openMap(page)
    await page
      .getByRole('list', { name: 'Datasets' })
      .getByRole('listitem', { name: 'india_states' })
      .waitFor()
    const wells = {
      type: 'FeatureCollection',
      features: [0, 1, 2].map((i) => ({
        type: 'Feature',
        properties: { well: `W${i}`, depth: 10 * (i + 1) },
        geometry: { type: 'Point', coordinates: [77 + i * 0.5, 23 + i * 0.25] },
      })),
    }
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: 'Import file' }).click(),
    ])
    await chooser.setFiles({
      name: 'e2e_wells.geojson',
      mimeType: 'application/geo+json',
      buffer: Buffer.from(JSON.stringify(wells)),
    })
    const item = page.getByRole('list', { name: 'Datasets' }).getByRole('listitem', { name: 'e2e_wells' })
    await item.waitFor({ timeout: 20_000 })
    expect(await item.textContent()).toMatch(/POINT.*3 features/)
    await page
      .getByRole('status')
      .filter({ hasText: /^Imported e2e_wells/ })
      .waitFor()
    await page.getByRole('button', { name: 'Show e2e_wells on map' }).click()
    await page
      .getByRole('list', { name: 'Legend entries of e2e_wells' })
      .getByRole('listitem')
      .first()
      .waitFor()

    // A file the workspace cannot read is refused with the reason and what to do next.
    const [again] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: 'Import file' }).click(),
    ])
    await again.setFiles({
      name: 'broken.geojson',
      mimeType: 'application/geo+json',
      buffer: Buffer.from('{"type":'),
    })
    const alert = page.getByRole('region', { name: 'Datasets' }).getByRole('alert')
    await alert.waitFor({ timeout: 20_000 })
    expect(await alert.textContent()).toMatch(/^broken\.geojson was not imported: .*JSON/)
    expect(await alert.textContent()).toContain('Correct the field named in the message')
    await page.context().close()
  })

  it('imports shapes from a GeoJSON file through the "Import shapes" file chooser', async () => {
    const page = await openApp(session.browser, session.host, undefined, 'Spatial analytics')
    await openMap(page)
    await clearDrawings(page)
    const zone = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { name: 'Delhi zone' },
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [76.8, 28.4],
                [77.4, 28.4],
                [77.4, 28.9],
                [76.8, 28.9],
                [76.8, 28.4],
              ],
            ],
          },
        },
      ],
    }
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: 'Import shapes' }).click(),
    ])
    await chooser.setFiles({
      name: 'delhi-zone.geojson',
      mimeType: 'application/geo+json',
      buffer: Buffer.from(JSON.stringify(zone)),
    })
    const item = shapes(page).filter({ hasText: /^\s*Delhi zone · [\d,.]+ km²\s*$/ })
    await expect.poll(() => item.count()).toBe(1)
    // 0.6° × 0.5° at 28.6° N: about 3,300 km².
    const area = Number(
      /· ([\d,.]+) km²/.exec((await item.getAttribute('aria-label'))!)![1]!.replace(/,/g, ''),
    )
    expect(area).toBeGreaterThan(3000)
    expect(area).toBeLessThan(3600)
    await waitForSave(page, 1)
    await page.context().close()
  })

  it('draws a polygon over a region with india_cities shown (README screenshot)', async () => {
    const page = await openApp(session.browser, session.host, undefined, 'Spatial analytics')
    const map = await openMap(page)
    await clearDrawings(page)
    await page.getByRole('button', { name: 'Show india_cities on map' }).click()
    await page
      .getByRole('list', { name: 'Legend entries of india_cities' })
      .getByRole('listitem')
      .first()
      .waitFor()
    await drawPolygon(page, [map.at(0.45, 0.35), map.at(0.62, 0.3), map.at(0.68, 0.55), map.at(0.5, 0.62)])
    await expect
      .poll(() =>
        shapes(page)
          .filter({ hasText: /Polygon 1 · / })
          .count(),
      )
      .toBe(1)
    await saveScreenshot(page, 'loop-draw.png')
    await page.context().close()
  })
})
