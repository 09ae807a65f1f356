/// <reference lib="dom" />
import { describe, expect, it } from 'vitest'
import { openApp, pageProblems, useAppSession } from '../support/app'

const session = useAppSession()

describe('routing in the browser host', () => {
  it('places three positions on the map, runs a matrix on the Gothenburg sample and reads a cell', async () => {
    const page = await openApp(session.browser, session.host, undefined, 'Routing')
    const panel = page.getByRole('region', { name: 'Distance matrix' })
    await panel.waitFor({ timeout: 30_000 })

    // Go to the bundled network: the road networks panel says where it is.
    const networks = page.getByRole('list', { name: 'Road networks' })
    await networks.getByText('Sample network: Gothenburg').waitFor({ timeout: 30_000 })
    await expect.poll(() => networks.textContent()).toMatch(/OpenStreetMap contributors, ODbL/)
    await page.getByRole('button', { name: 'Show on map: Sample network: Gothenburg' }).click()
    const map = page.getByRole('region', { name: 'Map' })
    const box = (await map.boundingBox())!
    const at = (fx: number, fy: number) => [box.x + box.width * fx, box.y + box.height * fy] as const
    // The cursor's coordinates say the map shows Gothenburg (longitude about 11.9-12.0).
    await expect
      .poll(
        async () => {
          await page.mouse.move(...at(0.5, 0.5))
          return (
            (await page
              .getByText(/\d+\.\d{5}/)
              .first()
              .textContent()) ?? ''
          )
        },
        { timeout: 15_000 },
      )
      .toMatch(/1[12]\.\d{5}/)

    // Add three positions by clicking the map around the centre of town.
    const add = panel.getByRole('button', { name: 'Add positions on the map' })
    await add.click()
    await expect.poll(() => panel.getByRole('button', { name: 'Stop adding positions' }).count()).toBe(1)
    const positions = panel.getByRole('table', { name: 'Positions' })
    const spots = [
      [0.45, 0.45],
      [0.55, 0.5],
      [0.5, 0.58],
    ] as const
    for (const [i, [fx, fy]] of spots.entries()) {
      await page.mouse.click(...at(fx, fy))
      // One click at a time, as a person would: each adds a numbered row (header row + positions).
      await expect.poll(() => positions.getByRole('row').count()).toBe(i + 2)
    }
    await panel.getByRole('button', { name: 'Stop adding positions' }).click()

    // Walking cannot go with the ETA resource: the option says why and cannot be chosen.
    const profile = panel.getByRole('combobox', { name: 'Profile' })
    const resource = panel.getByRole('combobox', { name: 'Resource' })
    await resource.selectOption('distance_matrix_eta')
    const walking = profile.getByRole('option', { name: /Walking/ })
    expect(await walking.isDisabled()).toBe(true)
    expect(await walking.textContent()).toMatch(/available with resources distance_matrix only/)
    await resource.selectOption('distance_matrix')

    // Every position a source, then run.
    for (const n of [2, 3]) await panel.getByRole('checkbox', { name: `Position ${n} is a source` }).check()
    await panel.getByRole('button', { name: 'Run matrix' }).click()
    const table = page.getByRole('table', { name: 'Distance matrix' })
    const cell = table.getByRole('button', { name: /^From 1 to 2: / })
    await cell.waitFor({ timeout: 60_000 })
    const label = (await cell.getAttribute('aria-label')) ?? ''
    expect(label).toMatch(/^From 1 to 2: \d+\.\d km, \d+:\d\d$/)
    const km = Number(/: (\d+\.\d) km/.exec(label)![1])
    expect(km).toBeGreaterThan(0.1)
    expect(km).toBeLessThan(20)
    await expect.poll(() => panel.getByRole('status').textContent()).toMatch(/placed on gothenburg-sample/)
    // The diagonal is zero; selecting a cell marks it.
    expect(await table.getByRole('button', { name: /^From 2 to 2: 0\.0 km, 0:00$/ }).count()).toBe(1)
    await cell.click()
    expect(await cell.getAttribute('aria-pressed')).toBe('true')
    expect(pageProblems(page)).toEqual([])
    await page.context().close()
  })
})
