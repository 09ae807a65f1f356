/// <reference lib="dom" />
import type { Page } from 'playwright-core'
import { expect } from 'vitest'

export interface SavedShape {
  properties: Record<string, unknown>
  geometry: { type: string; coordinates: number[][][] }
}

/** The drawings as the browser host holds them (the same call the app makes on start). */
export async function savedDrawings(page: Page): Promise<SavedShape[] | null> {
  return page.evaluate(async () => {
    const secret = sessionStorage.getItem('geo-analyst.session') ?? ''
    const response = await fetch('/api/op/drawings.load', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-geo-session': secret },
      body: '{}',
    })
    const result = (await response.json()) as { ok: boolean; value?: { collection: { features: unknown[] } } }
    return result.ok ? ((result.value?.collection.features ?? null) as SavedShape[] | null) : null
  })
}

/** Wait until the host holds this many drawings (the app saves them after a pause in the editing). */
export async function waitForSave(page: Page, count: number): Promise<void> {
  await expect.poll(async () => (await savedDrawings(page))?.length ?? -1, { timeout: 10_000 }).toBe(count)
}
