/**
 * The results leg of `npm run bench:join` (`--no-results` skips it; `--results-only` runs only it): a join
 * answering 200,000 and 1,000,000 point rows, run from the Spatial join form in Debian's Chromium (headless,
 * software WebGL) through the built browser host, timed from "Run join" to the first paint of the map
 * (all features drawn) and of the table, with the page's main-thread long tasks (PerformanceObserver
 * 'longtask') before and after that paint and while the map is panned with the mouse.
 * Builds the renderer and the hosts first when the build is missing or stale. Alone:
 * `npx tsx bench/join-results.ts [--small] [--renderer canvas|webgl] [--busy N]` (force one layer, to compare).
 *
 * `--busy N` (default 2, the cores; `--busy 0` skips it): each count is run twice in one run, first on the
 * machine as it is, then with N CPU-bound processes beside it (the load generator: every core busy, as when
 * the analyst's machine is doing other work), and both are printed with issue 29's aim beside them.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { chromium, type Page } from 'playwright-core'
import { ensureBuilt } from '../scripts/ensure-built.mjs'
import { CHROMIUM_ARGS, CHROMIUM_PATH, startHost } from '../test/support/app'
import {
  composePointJoin,
  cursorAt,
  longTasks,
  markTime,
  observeLongTasks,
  rowCount,
  seedPointJoin,
} from '../test/support/big-join'

export interface ResultsLeg {
  rows: number
  /** CPU-bound processes running beside this run (0: the machine as it is). */
  busy: number
  /**
   * Run join → the answer's headers and its last byte in the page (the service, the core and the transfer:
   * what the page waits for), ms.
   */
  headersMs: number
  answerMs: number
  /** Run join → table painted, map painted (all features drawn), ms. */
  tableMs: number
  mapMs: number
  /** Long tasks from Run to both paints: count and the longest, ms. */
  before: { count: number; longest: number }
  /** Long tasks in the 3 s after both paints and during a mouse pan. */
  after: { count: number; over200: number; longest: number }
  /** Frames per second while the map is dragged, and the drags it took (see `pan`). */
  panFps: number
  panDrags: number
}

async function waitForMark(page: Page, name: string, timeoutMs: number): Promise<number> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const t = await markTime(page, name)
    if (t !== null) return t
    if (Date.now() > until) throw new Error(`no "${name}" within ${timeoutMs / 1000} s`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/**
 * Drag the map with the mouse and count the page's frames (requestAnimationFrame) while it moves: frames
 * per second of a drag that moved the map (what lies under a point of the page changed). Headless Chromium
 * at times takes the first drag after a busy page as no pan (as a person would, it drags again): up to
 * three drags, the first that moved the map counted.
 */
async function pan(page: Page): Promise<{ fps: number; drags: number }> {
  const box = (await page.locator('[aria-label="Map"] .ol-viewport').boundingBox())!
  const x = box.x + box.width * 0.4
  const y = box.y + box.height * 0.4
  for (let drag = 1; drag <= 3; drag++) {
    const before = (await cursorAt(page, x, y)).join(' ')
    await page.evaluate(`(() => {
      window.__frames = []
      window.__recording = true
      const tick = (t) => { if (!window.__recording) return; window.__frames.push(t); requestAnimationFrame(tick) }
      requestAnimationFrame(tick)
    })()`)
    await page.mouse.move(x, y)
    await page.mouse.down()
    for (let i = 1; i <= 60; i++) await page.mouse.move(x + i * 4, y + i * 2)
    await page.mouse.up()
    const frames = (await page.evaluate('(window.__recording = false, window.__frames)')) as number[]
    if ((await cursorAt(page, x, y)).join(' ') !== before)
      return { fps: (frames.length - 1) / ((frames.at(-1)! - frames[0]!) / 1000), drags: drag }
  }
  throw new Error('three drags did not pan the map')
}

/**
 * The load generator: `n` processes each spinning one core until stopped. Returns the stop; the
 * processes also end when this process does (they are killed with it on a normal exit).
 */
function busyLoops(n: number): () => void {
  const children = Array.from({ length: n }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  )
  const stop = (): void => {
    for (const child of children) child.kill('SIGKILL')
  }
  process.once('exit', stop)
  return () => {
    process.removeListener('exit', stop)
    stop()
  }
}

async function oneRun(page: Page, count: number, busy: number): Promise<ResultsLeg> {
  await page
    .getByRole('navigation', { name: 'Activity bar' })
    .getByRole('tab', { name: 'Spatial analytics' })
    .click()
  await composePointJoin(page, count)
  const run = page.getByRole('form', { name: 'Spatial join' }).getByRole('button', { name: 'Run join' })
  await run.click()
  const started = await waitForMark(page, 'geo:join-run', 10_000)
  const table = await waitForMark(page, 'geo:results-table-painted', 600_000)
  const map = await waitForMark(page, 'geo:results-map-painted', 600_000)
  const status = page
    .getByRole('region', { name: 'Results' })
    .getByRole('status')
    .filter({ hasText: /\d rows?/ })
  const shown = rowCount(await status.first().textContent())
  if (shown !== count) throw new Error(`expected ${count} rows, the table says ${shown}`)
  const painted = Math.max(table, map)
  const answer = (await page.evaluate(`(() => {
    const e = performance.getEntriesByType('resource').filter((r) => r.name.includes('/api/op/gis.join')).at(-1)
    return e ? [e.responseStart, e.responseEnd] : [NaN, NaN]
  })()`)) as [number, number]
  await new Promise((resolve) => setTimeout(resolve, 3000))
  const panned = await pan(page)
  await new Promise((resolve) => setTimeout(resolve, 1000))
  const tasks = await longTasks(page)
  const before = tasks.filter((t) => t.start >= started && t.start < painted)
  const after = tasks.filter((t) => t.start >= painted)
  const longest = (ts: typeof tasks) => Math.round(Math.max(0, ...ts.map((t) => t.duration)))
  return {
    rows: count,
    busy,
    headersMs: Math.round(answer[0] - started),
    answerMs: Math.round(answer[1] - started),
    tableMs: Math.round(table - started),
    mapMs: Math.round(map - started),
    before: { count: before.length, longest: longest(before) },
    after: {
      count: after.length,
      over200: after.filter((t) => t.duration > 200).length,
      longest: longest(after),
    },
    panFps: Math.round(panned.fps * 10) / 10,
    panDrags: panned.drags,
  }
}

export async function runResultsLeg(
  counts: readonly number[],
  /** Force the canvas or the WebGL layer (else the app's choice: WebGL from 20,000 points). */
  renderer?: 'canvas' | 'webgl',
  /** Each count is run once per entry: with that many CPU-bound processes beside it (0: none). */
  busy: readonly number[] = [0],
): Promise<ResultsLeg[]> {
  ensureBuilt()
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'geo-bench-results-'))
  process.stdout.write(
    `results leg: seeding ${counts.map((c) => c.toLocaleString('en-US')).join(' and ')} points … `,
  )
  await seedPointJoin(dataDir, [...new Set(counts)])
  console.log('done')
  const host = await startHost({ dataDir })
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  })
  try {
    const out: ResultsLeg[] = []
    for (const loops of busy)
      for (const count of counts) {
        const context = await browser.newContext({ viewport: { width: 1400, height: 900 } })
        const page = await context.newPage()
        await observeLongTasks(page)
        if (renderer)
          await page.addInitScript(
            `localStorage.setItem('geo-analyst.resultsRenderer', ${JSON.stringify(renderer)})`,
          )
        await page.goto(host.openUrl)
        const stop = loops > 0 ? busyLoops(loops) : () => {}
        try {
          out.push(await oneRun(page, count, loops))
        } finally {
          stop()
        }
        await context.close()
      }
    return out
  } finally {
    await browser.close()
    await host.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

export function printResultsLeg(legs: readonly ResultsLeg[]): void {
  console.log('\nResults leg: Run join → first paint in Chromium through the browser host (software WebGL)')
  console.log(
    `${'rows'.padStart(10)}${'busy'.padStart(6)}${'headers'.padStart(9)}${'answer'.padStart(8)}${'table ms'.padStart(10)}${'map ms'.padStart(9)}${'long tasks before'.padStart(19)}${'longest'.padStart(9)}` +
      `${'after: tasks'.padStart(14)}${'>200 ms'.padStart(9)}${'longest'.padStart(9)}${'pan fps'.padStart(9)}${'drags'.padStart(7)}`,
  )
  for (const l of legs)
    console.log(
      `${l.rows.toLocaleString('en-US').padStart(10)}${String(l.busy).padStart(6)}${String(l.headersMs).padStart(9)}${String(l.answerMs).padStart(8)}${String(l.tableMs).padStart(10)}${String(l.mapMs).padStart(9)}` +
        `${String(l.before.count).padStart(19)}${String(l.before.longest).padStart(9)}${String(l.after.count).padStart(14)}` +
        `${String(l.after.over200).padStart(9)}${String(l.after.longest).padStart(9)}${String(l.panFps).padStart(9)}${String(l.panDrags).padStart(7)}`,
    )
  console.log(
    "headers, answer: Run → the join answer's headers and last byte in the page (service, core, transfer); " +
      'the rest of "table ms" and "map ms" is the page\'s',
  )
  console.log(
    'busy: CPU-bound processes running beside the run (the load generator; 0: the machine as it is)',
  )
  console.log('targets: 1,000,000 rows on screen under 3,000 ms; no long task over 200 ms after first paint')
  for (const l of legs.filter((leg) => leg.rows >= 1_000_000)) {
    const slowest = Math.max(l.tableMs, l.mapMs)
    console.log(
      `  ${l.rows.toLocaleString('en-US')} rows, busy ${l.busy}: table ${l.tableMs} ms, map ${l.mapMs} ms — ` +
        `${slowest < 3000 ? 'met' : 'NOT met'} (< 3,000 ms); after first paint longest task ${l.after.longest} ms — ` +
        `${l.after.over200 === 0 ? 'met' : 'NOT met'}`,
    )
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const counts = process.argv.includes('--small') ? [200_000] : [200_000, 1_000_000]
  const i = process.argv.indexOf('--renderer')
  const renderer = i > 0 ? (process.argv[i + 1] as 'canvas' | 'webgl') : undefined
  const b = process.argv.indexOf('--busy')
  const loops = b > 0 ? Number(process.argv[b + 1]) : 2
  if (!Number.isInteger(loops) || loops < 0)
    throw new Error('--busy takes a whole number of processes, 0 or more')
  printResultsLeg(await runResultsLeg(counts, renderer, loops > 0 ? [0, loops] : [0]))
}
