// `npm run bench:fleet-map`: the app's frame rate while panning the map over the live fleet, in Debian's
// Chromium (headless, software rendering: --disable-gpu), against the built browser host and its local
// service's simulated fleet (polling every 5 s as the app does).
//
// Scenarios, side by side in one run: 100 and 5,000 devices drawn one by one (arrows) by the canvas vector
// layer, 5,000 by an image layer (drawn once per change, moved as a picture while panning), by the fleet's
// own arrows layer (the app's default since decision 033: sprites copied from typed arrays) and by the
// WebGL vector layer (`geo-analyst.fleetRenderer` = `canvas` / `image` / `arrows` / `webgl`), and 5,000
// zoomed out, where they are clustered. Frames per second (median of the drags) and
// median and 95th-percentile frame times; ratios against 100 devices on canvas.
//
// Then the live legs, one after the other: the image layer (the default before decision 033), the arrows
// layer (the default after it), and the arrows layer zoomed out two levels (clusters): 5,000 devices polled
// every second (the shortest interval the app offers), for --live S seconds (default 20; 0 skips it) with the page's long tasks observed
// (PerformanceObserver 'longtask'): polls answered, the longest task, and how many passed 50 ms (issue 29's
// aim: none).
//
// Builds the renderer and the hosts first when the build is missing or stale. Options: --devices N (default 5000), --drags N (default 3),
// --live S (default 20).
import type { Browser, Page } from 'playwright-core'
import { chromium } from 'playwright-core'
import { ensureBuilt } from '../scripts/ensure-built.mjs'
import { CHROMIUM_ARGS, CHROMIUM_PATH, startHost } from '../test/support/app'
import { longTasks, observeLongTasks } from '../test/support/big-join'
import { panFrames } from './pan-frames'

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}

/** `src/features/telematics/device-layers.ts`: how the renderer draws the devices (`canvas` or `webgl`). */
const FLEET_RENDERER_KEY = 'geo-analyst.fleetRenderer'
type FleetRenderer = 'arrows' | 'canvas' | 'image' | 'webgl'

const MANY = flag('devices', 5000)
const DRAGS = flag('drags', 3)
const LIVE_SECONDS = flag('live', 20)
/** `src/features/telematics/fleet-rows.ts`: the poll interval the app keeps (seconds). */
const POLL_SECONDS_KEY = 'geo-analyst.fleet.pollSeconds'

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN

interface Scenario {
  label: string
  devices: number
  renderer: FleetRenderer
  /** Zoom levels out from the fleet's extent (clusters below zoom 11). */
  zoomOut: number
}

async function open(
  browser: Browser,
  url: string,
  renderer: FleetRenderer | null,
  pollSeconds?: number,
): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } })
  const stored: Array<[string, string]> = []
  if (renderer) stored.push([FLEET_RENDERER_KEY, renderer])
  if (pollSeconds !== undefined) stored.push([POLL_SECONDS_KEY, String(pollSeconds)])
  await context.addInitScript((entries) => {
    for (const [key, value] of entries) localStorage.setItem(key, value)
  }, stored)
  const page = await context.newPage()
  await page.goto(url)
  await page.getByRole('navigation', { name: 'Activity bar' }).getByRole('tab', { name: 'Fleet' }).click()
  await page.getByRole('region', { name: 'Devices' }).waitFor({ timeout: 60_000 })
  return page
}

/** Set the simulated fleet's size in the panel, and wait until the list has it. */
async function setFleet(page: Page, devices: number): Promise<void> {
  const panel = page.getByRole('region', { name: 'Devices' })
  await panel.getByText('Simulation', { exact: true }).click()
  await panel.getByRole('textbox', { name: 'Simulated vehicles' }).fill(String(devices))
  await panel.getByRole('button', { name: 'Apply' }).click()
  const status = panel.getByRole('status').filter({ hasText: /devices$/ })
  const deadline = Date.now() + 120_000
  for (;;) {
    const text = (await status.textContent({ timeout: 60_000 })) ?? ''
    const shown = Number(/· ([\d,]+) devices/.exec(text)?.[1]?.replace(/,/g, '') ?? 0)
    // Inactive devices are not listed: most of the fleet is enough.
    if (shown >= devices * 0.9) return
    if (Date.now() > deadline) throw new Error(`the fleet did not reach ${devices} devices: "${text}"`)
    await page.waitForTimeout(500)
  }
}

async function zoomReadout(page: Page): Promise<number> {
  return Number(/Zoom: ([\d.]+)/.exec((await page.getByText(/Zoom: /).textContent()) ?? '')?.[1] ?? NaN)
}

/** Zoom the map out by `levels` with its zoom-out button, each step waited for. */
async function zoomOutBy(page: Page, levels: number): Promise<void> {
  for (let i = 0; i < levels; i++) {
    const before = await zoomReadout(page)
    await page.locator('[aria-label="Map"] .ol-zoom-out').click()
    const deadline = Date.now() + 10_000
    while ((await zoomReadout(page)) > before - 0.9 && Date.now() < deadline) await page.waitForTimeout(100)
  }
}

async function main(): Promise<void> {
  // Never time a stale build: built first when missing or older than the sources.
  ensureBuilt()
  const scenarios: Scenario[] = [
    { label: '100 devices, canvas', devices: 100, renderer: 'canvas', zoomOut: 0 },
    {
      label: `${MANY.toLocaleString('en-US')} devices, canvas`,
      devices: MANY,
      renderer: 'canvas',
      zoomOut: 0,
    },
    { label: `${MANY.toLocaleString('en-US')} devices, image`, devices: MANY, renderer: 'image', zoomOut: 0 },
    {
      label: `${MANY.toLocaleString('en-US')} devices, arrows`,
      devices: MANY,
      renderer: 'arrows',
      zoomOut: 0,
    },
    { label: `${MANY.toLocaleString('en-US')} devices, WebGL`, devices: MANY, renderer: 'webgl', zoomOut: 0 },
    {
      label: `${MANY.toLocaleString('en-US')} devices, clustered`,
      devices: MANY,
      renderer: 'canvas',
      zoomOut: 2,
    },
    {
      label: `${MANY.toLocaleString('en-US')} clustered, arrows`,
      devices: MANY,
      renderer: 'arrows',
      zoomOut: 2,
    },
  ]
  const host = await startHost()
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  })
  const rows: Array<{ label: string; fps: number; median: number; p95: number; zoom: number }> = []
  const live: Array<{ label: string; polls: number; tasks: number[]; devices: number }> = []
  try {
    for (const s of scenarios) {
      const page = await open(browser, host.openUrl, s.renderer)
      await setFleet(page, s.devices)
      await page.getByRole('button', { name: 'Zoom to the listed devices' }).click()
      await page.waitForFunction(() => document.querySelector('[aria-label="Map"] canvas') !== null)
      await zoomOutBy(page, s.zoomOut)
      // One drag to warm up (styles cached, clusters built), then the measured ones.
      await panFrames(page)
      const drags = []
      for (let i = 0; i < DRAGS; i++) drags.push(await panFrames(page))
      const frames = drags.flatMap((d) => d.frameMs)
      rows.push({
        label: s.label,
        fps: median(drags.map((d) => d.fps)),
        median: median(frames),
        p95: pct(frames, 0.95),
        zoom: await zoomReadout(page),
      })
      await page.context().close()
    }
    if (LIVE_SECONDS > 0)
      for (const [label, renderer, zoomOut] of [
        ['image', 'image', 0],
        ['arrows', 'arrows', 0],
        ['arrows, clustered', 'arrows', 2],
      ] as const)
        live.push({ label, ...(await liveLeg(browser, host.openUrl, renderer, zoomOut)) })
  } finally {
    await browser.close()
    await host.stop()
  }
  const base = rows[0]!
  console.log(
    `\nPanning the live fleet (polled every 5 s), ${DRAGS} drags of 120 mouse moves each, Chromium headless, software rendering:`,
  )
  console.log(
    ['scenario'.padEnd(26), 'zoom', 'fps (median)', 'frame median', 'frame p95', `fps vs ${base.label}`].join(
      ' | ',
    ),
  )
  for (const r of rows)
    console.log(
      [
        r.label.padEnd(26),
        r.zoom.toFixed(1).padStart(4),
        r.fps.toFixed(1).padStart(12),
        `${r.median.toFixed(1)} ms`.padStart(12),
        `${r.p95.toFixed(1)} ms`.padStart(9),
        `${(r.fps / base.fps).toFixed(2)}×`,
      ].join(' | '),
    )
  if (live.length > 0)
    console.log(
      `\nLive: ${MANY.toLocaleString('en-US')} devices polled every 1 s for ${LIVE_SECONDS} s, the page's long tasks (aim: none over 50 ms):`,
    )
  for (const leg of live) {
    const over = leg.tasks.filter((d) => d > 50).length
    console.log(
      `  ${leg.label.padEnd(18)} ${leg.polls} polls; long tasks ${leg.tasks.length}, longest ${Math.max(0, ...leg.tasks).toFixed(0)} ms, over 50 ms: ${over}`,
    )
  }
}

/**
 * The live leg: the fleet polled every second on one renderer, the page's long tasks counted while it runs
 * (after the first full list has been drawn).
 */
async function liveLeg(
  browser: Browser,
  url: string,
  renderer: FleetRenderer,
  zoomOut: number,
): Promise<{ polls: number; tasks: number[]; devices: number }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } })
  await context.addInitScript(
    (entries) => {
      for (const [key, value] of entries) localStorage.setItem(key, value)
    },
    [
      [POLL_SECONDS_KEY, '1'],
      [FLEET_RENDERER_KEY, renderer],
    ] as Array<[string, string]>,
  )
  const page = await context.newPage()
  await observeLongTasks(page)
  await page.goto(url)
  await page.getByRole('navigation', { name: 'Activity bar' }).getByRole('tab', { name: 'Fleet' }).click()
  await page.getByRole('region', { name: 'Devices' }).waitFor({ timeout: 60_000 })
  await setFleet(page, MANY)
  await page.getByRole('button', { name: 'Zoom to the listed devices' }).click()
  await page.waitForTimeout(2_000)
  await zoomOutBy(page, zoomOut)
  let polls = 0
  page.on('requestfinished', (request) => {
    if (request.url().endsWith('/api/op/telematics.poll')) polls++
  })
  const from = (await page.evaluate('performance.now()')) as number
  await page.waitForTimeout(LIVE_SECONDS * 1000)
  const tasks = (await longTasks(page)).filter((t) => t.start >= from).map((t) => t.duration)
  await context.close()
  return { polls, tasks, devices: MANY }
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
