import { mkdirSync } from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'

const DIR = path.resolve(import.meta.dirname, '../../docs/screenshots')

/** The README's screenshots come from the e2e suite: `npm run screenshots` writes them. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  if (!process.env.GEO_ANALYST_SCREENSHOTS) return
  mkdirSync(DIR, { recursive: true })
  await page.mouse.move(0, 0)
  await page.screenshot({ path: path.join(DIR, name) })
}
