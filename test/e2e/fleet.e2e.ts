/// <reference lib="dom" />
import { describe, expect, it } from 'vitest'
import { seriousViolations } from '../support/axe'
import { openApp, openArea, pageProblems, useAppSession } from '../support/app'
import { saveScreenshot } from '../support/screenshots'

const session = useAppSession()

describe('fleet in the browser host, by mouse and keyboard', () => {
  it('devices panel, map, drawer, alarm composer and alerts feed against the local service', async () => {
    const page = await openApp(session.browser, session.host, undefined, 'Fleet')
    const panel = page.getByRole('region', { name: 'Devices' })
    const zoom = async () =>
      Number(/Zoom: ([\d.]+)/.exec((await page.getByText(/Zoom: /).textContent()) ?? '')?.[1])
    await panel.waitFor({ timeout: 30_000 })
    const table = panel.getByRole('table', { name: 'Devices' })
    // The simulated fleet (25 vehicles by default), labelled as simulated.
    await expect.poll(() => table.getByRole('row').count(), { timeout: 60_000 }).toBeGreaterThan(20)
    await panel.getByText('simulated', { exact: true }).waitFor()
    expect(await seriousViolations(page)).toEqual([])
    expect(pageProblems(page)).toEqual([])

    // Search narrows the list.
    const search = panel.getByRole('searchbox', { name: 'Search devices' })
    await search.click()
    await page.keyboard.type('Truck 1', { delay: 20 })
    await expect.poll(() => table.getByRole('row').count()).toBeLessThan(8)
    await search.fill('')
    await expect.poll(() => table.getByRole('row').count()).toBeGreaterThan(20)

    // Map: go to the fleet; at this zoom the devices are drawn one by one.
    await panel.getByRole('button', { name: 'Zoom to the listed devices' }).click()
    const map = page.getByRole('region', { name: 'Map' })
    await expect.poll(zoom, { timeout: 15_000 }).toBeGreaterThan(9)
    // The legend lists the fleet while its devices are in view, with their status colours.
    const legend = page
      .getByRole('region', { name: 'Legend', exact: true })
      .getByRole('list', { name: 'Legend entries of Fleet (simulated)' })
    await legend.getByText('Moving').waitFor({ timeout: 15_000 })

    // Keyboard: the second device in the list; its drawer opens.
    const rows = table.getByRole('row')
    await rows.nth(1).focus()
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Enter')
    const second = (await rows.nth(2).locator('td').first().textContent())!.trim()
    await expect.poll(() => rows.nth(2).getAttribute('aria-selected')).toBe('true')
    const drawer = page.getByRole('region', { name: 'Device details' })
    await drawer.getByRole('heading', { name: second }).waitFor({ timeout: 15_000 })
    await drawer.getByRole('region', { name: "Today's drive" }).getByText(/km$/).first().waitFor()
    const selected = panel.getByRole('group', { name: 'Selected device' })
    await selected.getByRole('button', { name: 'Follow' }).focus()
    await page.keyboard.press('Space')
    await expect
      .poll(() => selected.getByRole('button', { name: 'Following' }).getAttribute('aria-pressed'))
      .toBe('true')
    // Following centres the map on it, close in; then a click on its arrow chooses it again.
    await expect.poll(zoom, { timeout: 15_000 }).toBeGreaterThanOrEqual(13.9)
    await selected.getByRole('button', { name: 'Following' }).click()
    await rows.nth(3).focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => rows.nth(3).getAttribute('aria-selected')).toBe('true')
    const mapBox = (await map.boundingBox())!
    await page.mouse.click(mapBox.x + mapBox.width / 2, mapBox.y + mapBox.height / 2)
    await expect.poll(() => rows.nth(2).getAttribute('aria-selected')).toBe('true')
    await drawer.getByRole('heading', { name: second }).waitFor()

    // Composer: a stoppage alarm (ignition off, not moving) of high severity, for the devices inside a
    // polygon drawn on the map around them.
    const composer = page.getByRole('form', { name: 'New alarm' })
    await composer.getByRole('combobox', { name: 'Alarm type' }).selectOption('27')
    expect(await composer.getByLabel(/^Limit/).count()).toBe(0)
    await panel.getByRole('button', { name: 'Zoom to the listed devices' }).click()
    await composer.getByRole('button', { name: 'Draw around devices' }).click()
    const box = (await map.boundingBox())!
    const at = (fx: number, fy: number) => [box.x + box.width * fx, box.y + box.height * fy] as const
    for (const [fx, fy] of [
      [0.03, 0.3],
      [0.97, 0.3],
      [0.97, 0.97],
    ] as const)
      await page.mouse.click(...at(fx, fy))
    await page.mouse.dblclick(...at(0.03, 0.97))
    const chosen = composer.getByRole('list', { name: 'Devices of the alarm' })
    await expect.poll(() => chosen.getByRole('listitem').count(), { timeout: 10_000 }).toBeGreaterThan(1)
    // A bad duration is explained in the shared validator's words and blocks creating.
    const duration = composer.getByRole('textbox', { name: 'Duration (s)' })
    await duration.click()
    await page.keyboard.type('soon')
    await composer.getByText('Duration must be a non-negative integer').waitFor()
    expect(await composer.getByRole('button', { name: 'Create alarm' }).isDisabled()).toBe(true)
    await duration.fill('')
    await duration.click()
    await page.keyboard.type('2')
    await composer.getByRole('combobox', { name: 'Severity' }).selectOption('1')
    await composer
      .getByLabel('Request body')
      .getByText(/"alarmType": 27/)
      .waitFor()
    await composer.getByRole('button', { name: 'Create alarm' }).click()
    await composer
      .getByRole('status')
      .getByText(/Alarm created \(configuration \d+\)/)
      .waitFor({ timeout: 15_000 })

    // The stopped vehicles raise alerts: high severity shows as a notification, and in the feed.
    const notifications = page.getByRole('region', { name: 'Alert notifications' })
    const toast = notifications.getByRole('alert').first()
    await toast.waitFor({ timeout: 60_000 })
    expect(await toast.textContent()).toMatch(/Stoppage — /)
    await toast.getByRole('button', { name: 'Show on map' }).click()
    await page.getByRole('tab', { name: 'Alerts' }).click()
    const feed = page.getByRole('list', { name: 'Alerts, newest first' })
    const items = feed.getByRole('button')
    await expect.poll(() => items.count()).toBeGreaterThan(0)
    const times = await feed.locator('time').evaluateAll((els) => els.map((e) => e.getAttribute('datetime')))
    expect(times).toEqual([...times].sort().reverse())
    await items.first().focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => items.first().getAttribute('aria-current')).toBe('true')
    expect(await seriousViolations(page)).toEqual([])
    await saveScreenshot(page, 'fleet.png')

    // The fleet's layers are entries of the layer list, with the status colours in their legend.
    await openArea(page, 'Layers')
    const layerTitles = () =>
      page
        .getByRole('tabpanel', { name: 'Layers' })
        .getByRole('list', { name: 'Layers', exact: true })
        .evaluate((list) => [...list.children].map((li) => li.getAttribute('aria-label') ?? ''))
    await expect
      .poll(layerTitles, { timeout: 30_000 })
      .toEqual(expect.arrayContaining(['Fleet (simulated)', 'Trail of the chosen device', 'Basemap']))
    await openArea(page, 'Fleet')

    // Replay: a recorded GPX track becomes a device that plays, pauses and changes speed.
    const replay = page.getByRole('region', { name: 'Replay' })
    const start = Date.parse('2026-11-23T08:00:00Z')
    const trkpts = Array.from(
      { length: 20 },
      (_, i) =>
        `<trkpt lat="${57.7 + i * 0.0005}" lon="${11.97 + i * 0.0005}"><time>${new Date(start + i * 10_000).toISOString()}</time></trkpt>`,
    ).join('')
    await replay.getByLabel('Track to replay').setInputFiles({
      name: 'morning-run.gpx',
      mimeType: 'application/gpx+xml',
      buffer: Buffer.from(
        `<?xml version="1.0"?><gpx version="1.1" creator="e2e" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Morning run</name><trkseg>${trkpts}</trkseg></trk></gpx>`,
      ),
    })
    const tracks = replay.getByRole('list', { name: 'Replayed tracks' })
    await tracks.getByText(/playing at 1×/).waitFor({ timeout: 15_000 })
    const name = (await tracks.locator('strong').first().textContent())!.trim()
    await tracks.getByRole('button', { name: `Pause ${name}` }).click()
    await tracks.getByText(/paused/).waitFor()
    await tracks.getByRole('combobox', { name: `Speed of ${name}` }).selectOption('10')
    await tracks.getByRole('button', { name: `Play ${name}` }).click()
    await tracks.getByText(/playing at 10×/).waitFor()

    await page.screenshot({ path: '/tmp/fleet-3.png' })
    expect(pageProblems(page)).toEqual([])
    await page.context().close()
  })
})
