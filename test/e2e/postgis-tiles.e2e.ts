/// <reference lib="dom" />
import type { Browser, Page, Response } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, openApp, pageProblems, startHost, type RunningHost } from '../support/app'
import { createPointTable } from '../support/postgis-points'
import { postgresMissing, startTestCluster, type TestCluster } from '../support/postgres'

/**
 * A PostGIS table of a million points on the map (issue 31, decision 031): the browser host's local
 * service pointed at a throw-away cluster (GEO_ANALYST_WORKSPACE=postgresql://…, the password in
 * PGPASSWORD), the dataset shown from the dataset list and browsed with the mouse — drawn from vector tiles
 * the database cuts, fetched through the host (`gis.tile`), never loaded whole.
 */
const missing = postgresMissing()
const POINTS = Number(process.env.E2E_TILE_POINTS ?? 1_000_000)

let cluster: TestCluster
let host: RunningHost
let browser: Browser

/** What the page asked the host for tiles, and how each answered. */
interface TileCall {
  z: number
  status: number
  bytes: number
}

/** Tile calls sent, ended (answered or failed), and answers whose body is still being read. */
const traffic = { sent: 0, ended: 0, reading: 0 }

function watchTiles(page: Page): TileCall[] {
  const calls: TileCall[] = []
  const isTile = (url: string) => url.endsWith('/api/op/gis.tile')
  page.on('request', (request) => {
    if (isTile(request.url())) traffic.sent++
  })
  page.on('requestfinished', (request) => {
    if (isTile(request.url())) traffic.ended++
  })
  page.on('requestfailed', (request) => {
    if (isTile(request.url())) traffic.ended++
  })
  page.on('response', (response: Response) => {
    if (!isTile(response.url())) return
    const request = JSON.parse(response.request().postData() ?? '{}') as { z?: number }
    traffic.reading++
    // The host sends the tile's bytes as a frame the answer's JSON refers to: {"$bytes": [offset, length]}.
    void response
      .body()
      .then((body) => {
        const length = /"\$bytes":\[\d+,(\d+)\]/.exec(body.toString('latin1'))?.[1]
        calls.push({ z: request.z ?? -1, status: response.status(), bytes: Number(length ?? 0) })
      })
      .catch(() => calls.push({ z: request.z ?? -1, status: response.status(), bytes: 0 }))
      .finally(() => traffic.reading--)
  })
  return calls
}

/** The share of pixels that differ between two screenshots of the same size (decoded by Chromium). */
async function differingShare(page: Page, a: Buffer, b: Buffer): Promise<number> {
  return page.evaluate(
    async ([x, y]) => {
      const read = async (data: string) => {
        const image = new Image()
        image.src = `data:image/png;base64,${data}`
        await image.decode()
        const canvas = document.createElement('canvas')
        canvas.width = image.naturalWidth
        canvas.height = image.naturalHeight
        const ctx = canvas.getContext('2d', { willReadFrequently: true })!
        ctx.drawImage(image, 0, 0)
        return ctx.getImageData(0, 0, canvas.width, canvas.height).data
      }
      const [p, q] = await Promise.all([read(x), read(y)])
      if (p.length !== q.length) return 1
      let differ = 0
      for (let i = 0; i < p.length; i += 4)
        if (Math.abs(p[i]! - q[i]!) + Math.abs(p[i + 1]! - q[i + 1]!) + Math.abs(p[i + 2]! - q[i + 2]!) > 6)
          differ++
      return differ / (p.length / 4)
    },
    [a.toString('base64'), b.toString('base64')] as const,
  )
}

/** Until every tile call sent has been answered and none was sent for a second (the view is drawn). */
async function settled(calls: TileCall[]): Promise<void> {
  let last = -1
  for (let i = 0; i < 120; i++) {
    await new Promise((r) => setTimeout(r, 1000))
    if (traffic.sent === traffic.ended && traffic.reading === 0 && calls.length === last) return
    last = calls.length
  }
  throw new Error(
    `tile calls still unanswered after 2 minutes: ${JSON.stringify(traffic)}; the host said:\n${host.output().slice(-3000)}`,
  )
}

describe.skipIf(missing)(
  `a million PostGIS points on the map${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    beforeAll(async () => {
      cluster = await startTestCluster()
      await cluster.admin.query('CREATE DATABASE gis')
      const db = await cluster.connect('gis')
      await db.query('CREATE EXTENSION postgis; CREATE SCHEMA work')
      await createPointTable(db, 'work.places', POINTS)
      ;[browser, host] = await Promise.all([
        launchBrowser(),
        startHost({
          env: { GEO_ANALYST_WORKSPACE: cluster.uri('gis', 'schema=work'), PGPASSWORD: cluster.password },
        }),
      ])
    }, 240_000)

    afterAll(async () => {
      await browser?.close()
      await host?.stop()
      await cluster?.stop()
    })

    it('draws the table from vector tiles and keeps drawing it while the mouse pans and zooms', async () => {
      const page = await openApp(browser, host, { width: 1280, height: 800 }, 'Spatial analytics')
      const calls = watchTiles(page)
      const map = page.getByRole('region', { name: 'Map' })
      await map.waitFor()
      const aside = page.getByRole('button', { name: 'Set aside' })
      await page.getByText(/web host/).waitFor()
      if ((await aside.count()) > 0) await aside.first().click()
      await page.getByRole('button', { name: 'Zoom to India' }).click()
      await page.waitForTimeout(1500)
      const before = await map.screenshot()

      // The dataset list says the workspace is a database; showing the table asks tiles, not features.
      const features: string[] = []
      page.on('request', (r) => {
        if (r.url().endsWith('/api/op/datasets.features')) features.push(r.url())
      })
      await page.getByRole('button', { name: 'Show places on map' }).click({ timeout: 60_000 })
      // India in a 1280 × 800 window is a couple of zoom-3 tiles: each must come with features.
      await expect.poll(() => calls.filter((c) => c.bytes > 0).length, { timeout: 60_000 }).toBeGreaterThan(0)
      await settled(calls)
      expect(calls.every((c) => c.status === 200)).toBe(true)
      expect(features).toEqual([])
      const drawn = await map.screenshot()
      // Points drawn over a good part of the country (the basemap alone is the "before").
      expect(await differingShare(page, before, drawn)).toBeGreaterThan(0.02)

      // A first drag, as one takes hold of the map (the wheel then zooms where the pointer is).
      const box = (await map.boundingBox())!
      await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5)
      await page.mouse.down()
      await page.mouse.move(box.x + box.width * 0.55, box.y + box.height * 0.55, { steps: 5 })
      await page.mouse.up()
      // Zoom in with the wheel over the map, three notches: tiles of higher zooms, thinned less.
      const zoomBefore = Math.max(...calls.map((c) => c.z))
      for (let i = 0; i < 3; i++) {
        await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5)
        await page.mouse.wheel(0, -400)
        await page.waitForTimeout(400)
      }
      await expect
        .poll(() => Math.max(...calls.map((c) => c.z)), { timeout: 90_000 })
        .toBeGreaterThan(zoomBefore)
      await settled(calls)
      const zoom = Math.max(...calls.map((c) => c.z))
      expect(calls.filter((c) => c.z === zoom && c.bytes > 0).length).toBeGreaterThan(0)
      const zoomed = await map.screenshot()

      // Pan with the mouse, dragged right and down: the view goes north-west, towards Delhi, still over the
      // points; the tiles that came into view are asked and come with features.
      const beforePan = calls.length
      await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.5)
      await page.mouse.down()
      await page.mouse.move(box.x + box.width * 0.8, box.y + box.height * 0.75, { steps: 12 })
      await page.mouse.up()
      await expect.poll(() => calls.length, { timeout: 90_000 }).toBeGreaterThan(beforePan)
      await settled(calls)
      expect(calls.slice(beforePan).filter((c) => c.bytes > 0).length).toBeGreaterThan(0)
      expect(calls.every((c) => c.status === 200)).toBe(true)
      expect(await differingShare(page, zoomed, await map.screenshot())).toBeGreaterThan(0.02)
      expect(pageProblems(page)).toEqual([])
    }, 420_000)
  },
)
