import path from 'node:path'
import type { Page } from 'playwright-core'
import { Workspace } from '../../electron/local-service/workspace/workspace'
import { mulberry32 } from '../../bench/join-data'

/**
 * A point dataset of `count` seeded random points over India (`pts_<count>`, fields id and name) and one
 * polygon covering them all (`cover`), written into a data folder's workspace: a join of the points Within
 * the cover answers `count` rows.
 */
export async function seedPointJoin(dataDir: string, counts: readonly number[], seed = 7): Promise<void> {
  const workspace = new Workspace(path.join(dataDir, 'workspace'))
  for (const count of counts) {
    const random = mulberry32(seed + count)
    const features = Array.from({ length: count }, (_, id) => ({
      geometry: {
        type: 'Point' as const,
        coordinates: [
          Math.round((68 + random() * 29) * 1e5) / 1e5,
          Math.round((8 + random() * 29) * 1e5) / 1e5,
        ],
      },
      properties: { id, name: `P${id}` },
    }))
    await workspace.create(pointsName(count), features, { source: 'seeded test data' })
  }
  const ring = [
    [66, 6],
    [99, 6],
    [99, 39],
    [66, 39],
    [66, 6],
  ]
  await workspace.create(
    'cover',
    [{ geometry: { type: 'Polygon', coordinates: [ring] }, properties: { id: 0 } }],
    {
      source: 'seeded test data',
    },
  )
}

export const pointsName = (count: number): string => `pts_${count}`

/** Count main-thread long tasks from the page's start (`window.__longTasks`): call before `goto`. */
export async function observeLongTasks(page: Page): Promise<void> {
  // A string, not a function: tsx (the benchmarks) would wrap a function in a helper the page lacks.
  await page.addInitScript(`
    window.__longTasks = []
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration })
    }).observe({ type: 'longtask', buffered: true })
  `)
}

/** The long tasks seen so far (ms since the page's start). */
export async function longTasks(page: Page): Promise<Array<{ start: number; duration: number }>> {
  return (await page.evaluate('window.__longTasks')) as Array<{ start: number; duration: number }>
}

/** The start (ms since the page's start) of the last User Timing mark of that name, or null. */
export async function markTime(page: Page, name: string): Promise<number | null> {
  return (await page.evaluate(
    `(performance.getEntriesByName(${JSON.stringify(name)}, 'mark').at(-1) || { startTime: null }).startTime`,
  )) as number | null
}

/**
 * The longitude and latitude the status bar shows for the mouse at (x, y) of the page: hovered from a point
 * 3 px away first, so that the reading that follows is the new one. Throws when none shows in 10 s.
 */
export async function cursorAt(page: Page, x: number, y: number): Promise<[number, number]> {
  const bar = page.getByLabel('Status bar')
  const read = async () => /Cursor: lon (-?[\d.]+), lat (-?[\d.]+)/.exec((await bar.textContent()) ?? '')
  const until = Date.now() + 10_000
  const wait = async (done: (reading: RegExpExecArray | null) => boolean) => {
    for (;;) {
      const reading = await read()
      if (done(reading)) return reading
      if (Date.now() > until) throw new Error('the status bar shows no new cursor position')
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  await page.mouse.move(x - 3, y - 3)
  const near = (await wait((r) => r !== null))![0]
  await page.mouse.move(x, y)
  const numbers = (await wait((r) => r !== null && r[0] !== near))!
  return [Number(numbers[1]), Number(numbers[2])]
}

/** Compose "points Within cover" (id, name, geom) in the Spatial join form, as a person would. */
export async function composePointJoin(page: Page, count: number): Promise<void> {
  const form = page.getByRole('form', { name: 'Spatial join' })
  await form.getByRole('combobox', { name: 'Query type' }).selectOption('spatialOperation')
  await form.getByRole('combobox', { name: 'Source dataset' }).fill(pointsName(count))
  await form.getByRole('combobox', { name: 'Operator' }).selectOption('Within')
  await form.getByRole('combobox', { name: 'Reference dataset' }).fill('cover')
  await form.getByRole('textbox', { name: 'Selection (source)' }).fill('id,name,geom')
}

/** The number in the results' row count ("200,000 rows"), NaN when none shows. */
export function rowCount(text: string | null): number {
  const match = /^([\d,]+) rows?/.exec((text ?? '').trim())
  return match ? Number(match[1]!.replace(/,/g, '')) : NaN
}
