/// <reference lib="dom" />
import { mkdtempSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { openApp, openArea, pageProblems, useAppSession } from '../support/app'

const session = useAppSession()

describe('places in the browser host, by mouse and keyboard', () => {
  it('search box: suggestions as you type, keyboard choice, fly to and pin, save to My places', async () => {
    const page = await openApp(session.browser, session.host, undefined, 'Places')
    const search = page.getByRole('combobox', { name: 'Search places' })
    await search.click()
    await page.keyboard.type('koramang', { delay: 30 })
    const list = page.getByRole('listbox', { name: 'Suggestions' })
    await list
      .getByRole('option', { name: /Koramangala\s+LOCALITY/ })
      .first()
      .waitFor()
    // Arrows move the active option; Escape closes the list and Enter reopens with the first chosen.
    await page.keyboard.press('ArrowDown')
    expect(await search.getAttribute('aria-activedescendant')).toMatch(/option-1$/)
    await page.keyboard.press('ArrowUp')
    await page.keyboard.press('Escape')
    await expect.poll(() => search.getAttribute('aria-expanded')).toBe('false')
    await page.keyboard.press('ArrowDown')
    await expect.poll(() => search.getAttribute('aria-expanded')).toBe('true')
    await page.keyboard.press('Enter')
    await expect.poll(() => search.inputValue()).toBe('Koramangala')
    const chosen = page.getByRole('search', { name: 'Search places' })
    const place = chosen.getByRole('group', { name: 'Chosen place' })
    await place.getByText('Bengaluru, Karnataka, 560034').waitFor()
    await place.getByRole('button', { name: 'Save to My places' }).click()
    const saved = page.getByRole('list', { name: 'Saved places' })
    await saved.getByText('Koramangala').waitFor()
    // Saved places come back among the suggestions.
    await search.fill('')
    await search.click()
    await page.keyboard.type('korama', { delay: 30 })
    await list.getByRole('option', { name: /Koramangala\s+My place/ }).waitFor()
    // Filters: the place type narrows the suggestions.
    await page.keyboard.press('Escape')
    await chosen.getByRole('button', { name: 'Filters' }).click()
    await chosen.getByLabel('Place type').selectOption('CITY')
    await search.fill('')
    await search.click()
    await page.keyboard.type('bengal', { delay: 30 })
    await list.getByRole('option', { name: /Bengaluru\s+CITY/ }).waitFor()
    expect(await list.getByRole('option', { name: /LOCALITY/ }).count()).toBe(0)
    expect(pageProblems(page)).toEqual([])
    await page.context().close()
  })

  it('address panel: the standardized parts as a labelled table; My places: save a clicked point', async () => {
    const page = await openApp(session.browser, session.host, undefined, 'Places')
    const form = page.getByRole('form', { name: 'Standardize an address' })
    await form.getByLabel('Address').fill('C/O Ramesh Kumar, Flat 302, MG Road, Gurgaon, Haryana PIN-122001')
    await form.getByRole('button', { name: 'Standardize' }).click()
    const table = form.getByRole('table', { name: 'Standardized address' })
    await table.waitFor()
    await expect.poll(() => table.getByRole('row', { name: /City/ }).textContent()).toMatch(/Gurugram/)
    expect(await table.getByRole('row', { name: /Care of/ }).textContent()).toMatch(/C\/O Ramesh Kumar/)
    expect(await table.getByRole('row', { name: /PIN code/ }).textContent()).toMatch(/122001/)

    const mine = page.getByRole('region', { name: 'My places' })
    await mine.getByLabel('Name of the point to save').fill('Depot e2e')
    await mine.getByRole('button', { name: 'Save a point: click on the map' }).click()
    const map = page.getByRole('region', { name: 'Map' })
    const box = (await map.boundingBox())!
    await page.mouse.click(box.x + box.width * 0.4, box.y + box.height * 0.6)
    await page.getByRole('list', { name: 'Saved places' }).getByText('Depot e2e').waitFor()
    // A second point; the saved places then become the distance matrix's positions.
    await mine.getByLabel('Name of the point to save').fill('Depot e2e two')
    await mine.getByRole('button', { name: 'Save a point: click on the map' }).click()
    await page.mouse.click(box.x + box.width * 0.6, box.y + box.height * 0.4)
    await page.getByRole('list', { name: 'Saved places' }).getByText('Depot e2e two').waitFor()
    const savedCount = await page.getByRole('list', { name: 'Saved places' }).getByRole('listitem').count()
    await mine.getByRole('button', { name: 'Use in distance matrix' }).click()
    // One row per saved place, under the header row.
    const positions = page.getByRole('table', { name: 'Positions' })
    await expect.poll(() => positions.getByRole('row').count()).toBe(savedCount + 1)
    await openArea(page, 'Places')
    await page.getByRole('button', { name: 'Delete Depot e2e two' }).click()
    await page
      .getByRole('list', { name: 'Saved places' })
      .getByText('Depot e2e two')
      .waitFor({ state: 'detached' })
    // Delete by keyboard.
    await page.getByRole('button', { name: 'Delete Depot e2e', exact: true }).focus()
    await page.keyboard.press('Enter')
    await expect
      .poll(() => page.getByRole('list', { name: 'Saved places' }).getByText('Depot e2e').count())
      .toBe(0)
    expect(pageProblems(page)).toEqual([])
    await page.context().close()
  })

  it('batch geocoding: a CSV column becomes a point dataset with progress, then a dataset like any other', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'geo-e2e-csv-'))
    const csv = path.join(dir, 'branches.csv')
    const rows = ['id,address']
    for (let i = 0; i < 40; i++)
      rows.push(
        `${i},"${['12 MG Road, Bangalore 560001', 'Koramangala, Bengaluru 560034', 'Connaught Place, New Delhi 110001', 'qwzx'][i % 4]}"`,
      )
    writeFileSync(csv, rows.join('\n') + '\n')
    const page = await openApp(session.browser, session.host, undefined, 'Places')
    const form = page.getByRole('form', { name: 'Batch geocoding' })
    await form.getByLabel('CSV file', { exact: true }).setInputFiles(csv)
    await expect.poll(() => form.getByLabel('Address column').inputValue()).toBe('address')
    await form.getByLabel('New dataset name').fill('e2e_branches')
    await form.getByRole('button', { name: 'Geocode' }).click()
    await form
      .getByText('30 of 40 addresses placed — saved as dataset e2e_branches')
      .waitFor({ timeout: 60_000 })
    await form.getByRole('button', { name: 'Show datasets' }).click()
    await page
      .getByRole('list', { name: 'Datasets' })
      .getByRole('listitem', { name: 'e2e_branches' })
      .waitFor()
    expect(pageProblems(page)).toEqual([])
    await page.context().close()
  })
})
