import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

export interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: string[]
}

/**
 * Run axe-core (injected into the page over the DevTools protocol, so the page's CSP does not apply to
 * it) on the page or a part of it; the serious and critical violations, with the elements concerned.
 */
export async function seriousViolations(page: Page, selector?: string): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource)
  const violations = await page.evaluate(async (context) => {
    const axe = (
      window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<{ violations: unknown[] }> } }
    ).axe
    const result = await axe.run(context ?? document, { resultTypes: ['violations'] })
    return result.violations as Array<{
      id: string
      impact: string | null
      help: string
      nodes: Array<{ target: string[] }>
    }>
  }, selector ?? null)
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5),
    }))
}
