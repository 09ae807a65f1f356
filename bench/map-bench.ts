// `npm run bench:map`: a 200,000-point dataset styled graduated (5 classes) in the app, in Debian's Chromium
// (headless, software rendering: --disable-gpu), against the built browser host.
//
// 1. Panning: the map dragged by the mouse, frames counted with requestAnimationFrame during each drag.
//    The dataset drawn as an image layer (the app's choice: the rendered image moves while panning) and as a
//    vector layer (every point drawn on every frame), side by side: frames per second (median of 3 drags),
//    median and 95th-percentile frame time.
// 2. "Export map" of the same view: PNG and PDF on A4 at 150 and 300 DPI, time until the file is ready and
//    its size.
//
// Needs a build (`npm run build:renderer`). Options: --points N (default 200000), --drags N (default 3).
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
/** `src/features/gis/datasets/dataset-renderer.ts`: how the renderer draws a shown dataset. */
const DATASET_RENDERER_KEY = 'geo-analyst.datasetRenderer'
import { Workspace } from '../electron/local-service/workspace/workspace'
import { CHROMIUM_ARGS, CHROMIUM_PATH, startHost } from '../test/support/app'
import { chromium } from 'playwright-core'
import { mulberry32 } from './join-data'
import { panFrames } from './pan-frames'

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}

const COUNT = flag('points', 200_000)
const DRAGS = flag('drags', 3)
const NAME = 'bench_points'

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN

async function makeWorkspace(dir: string): Promise<void> {
  const random = mulberry32(11)
  const features = Array.from({ length: COUNT }, (_, id) => ({
    geometry: { type: 'Point' as const, coordinates: [68 + random() * 29, 8 + random() * 29] },
    // A skewed, population-like field: most small, a few very large.
    properties: { id, name: `P${id}`, population: Math.round(500 * Math.exp(random() * random() * 10)) },
  }))
  await new Workspace(path.join(dir, 'workspace')).create(NAME, features, { source: 'bench:map' })
}

async function openWith(browser: Browser, url: string, renderer: 'image' | 'vector'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true })
  await context.addInitScript(([key, value]) => localStorage.setItem(key, value), [
    DATASET_RENDERER_KEY,
    renderer,
  ] as const)
  const page = await context.newPage()
  await page.goto(url)
  return page
}

async function showAndStyle(page: Page): Promise<number> {
  await page.getByRole('tab', { name: 'Spatial analytics' }).click()
  const started = Date.now()
  await page.getByRole('button', { name: `Show ${NAME} on map` }).click({ timeout: 60_000 })
  await page.getByRole('tab', { name: 'Layers' }).click()
  await page.getByRole('button', { name: `Style ${NAME}` }).waitFor({ timeout: 180_000 })
  const shownMs = Date.now() - started
  await page.getByRole('button', { name: `Style ${NAME}` }).click()
  const style = page.getByRole('region', { name: `Style of ${NAME}` })
  await style.getByRole('combobox', { name: 'Symbol' }).selectOption('graduated')
  await style.getByRole('combobox', { name: 'Field' }).selectOption('population')
  await page
    .getByRole('list', { name: `Legend of ${NAME}` })
    .getByRole('listitem')
    .nth(4)
    .waitFor()
  await page.getByRole('button', { name: `Style ${NAME}` }).click()
  await page.waitForTimeout(3000) // let the first full draw settle (a benchmark, not a test)
  return shownMs
}

async function exportOnce(
  page: Page,
  format: 'png' | 'pdf',
  dpi: number,
): Promise<{ seconds: number; kb: number }> {
  await page.getByRole('button', { name: 'Export map' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'Export map' })
  await dialog.getByRole('radio', { name: format === 'png' ? 'PNG image' : 'PDF document' }).check()
  await dialog.getByRole('combobox', { name: 'Size' }).selectOption('A4')
  await dialog.getByRole('combobox', { name: 'Resolution (DPI)' }).selectOption(String(dpi))
  const started = Date.now()
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 300_000 }),
    dialog.getByRole('button', { name: `Export ${format.toUpperCase()}` }).click(),
  ])
  const file = await download.path()
  const seconds = (Date.now() - started) / 1000
  const kb = (await readFile(file!)).length / 1024
  await page.keyboard.press('Escape')
  return { seconds, kb }
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'geo-bench-map-'))
process.stdout.write(`Creating ${COUNT.toLocaleString('en-US')} points … `)
await makeWorkspace(dataDir)
console.log('done')
const host = await startHost({ dataDir })
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS })
try {
  const rows: string[] = []
  let imagePage: Page | null = null
  const fpsBy: Record<string, number> = {}
  for (const renderer of ['image', 'vector'] as const) {
    const page = await openWith(browser, host.openUrl, renderer)
    const shownMs = await showAndStyle(page)
    const drags = []
    for (let i = 0; i < DRAGS; i++) drags.push(await panFrames(page))
    const fps = median(drags.map((d) => d.fps))
    const frames = drags.flatMap((d) => d.frameMs)
    fpsBy[renderer] = fps
    rows.push(
      `${renderer.padEnd(8)} ${fps.toFixed(1).padStart(8)} ${median(frames).toFixed(1).padStart(12)} ${pct(frames, 0.95).toFixed(1).padStart(12)} ${(shownMs / 1000).toFixed(1).padStart(10)}`,
    )
    if (renderer === 'image') imagePage = page
    else await page.context().close()
  }
  console.log(
    `\nPanning ${COUNT.toLocaleString('en-US')} points, graduated (5 classes), ${DRAGS} drags of 120 mouse moves:`,
  )
  console.log(`renderer      fps  median ms/f     p95 ms/f   shown (s)`)
  for (const row of rows) console.log(row)
  console.log(`ratio image/vector: ${(fpsBy.image! / fpsBy.vector!).toFixed(1)}× the frames per second`)

  console.log(`\nExport map (same view, A4, ${COUNT.toLocaleString('en-US')} styled points):`)
  console.log(`format  dpi   seconds      KB`)
  for (const [format, dpi] of [
    ['png', 150],
    ['png', 300],
    ['pdf', 150],
    ['pdf', 300],
  ] as const) {
    const r = await exportOnce(imagePage!, format, dpi)
    console.log(
      `${format.padEnd(7)} ${String(dpi).padEnd(4)} ${r.seconds.toFixed(1).padStart(8)} ${r.kb.toFixed(0).padStart(7)}`,
    )
  }
} finally {
  await browser.close()
  await host.stop()
  await rm(dataDir, { recursive: true, force: true })
}
