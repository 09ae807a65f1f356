import type { Page } from 'playwright-core'

/**
 * Drag the app's map with the mouse (120 moves out and back from its centre) and count the frames the page
 * painted meanwhile with requestAnimationFrame: frames per second over the drag, and each frame's time.
 */
export async function panFrames(page: Page): Promise<{ fps: number; frameMs: number[] }> {
  const box = (await page.locator('[aria-label="Map"] .ol-viewport').boundingBox())!
  const x = box.x + box.width * 0.5
  const y = box.y + box.height * 0.5
  // A string, not a function: tsx would wrap the inner function in a helper the page does not have.
  await page.evaluate(`(() => {
    window.frames_ = []
    window.recording = true
    const tick = (t) => {
      if (!window.recording) return
      window.frames_.push(t)
      requestAnimationFrame(tick)
    }
    requestAnimationFrame(tick)
  })()`)
  await page.mouse.move(x, y)
  await page.mouse.down()
  for (let i = 1; i <= 60; i++) await page.mouse.move(x + i * 4, y + i * 2)
  for (let i = 59; i >= 0; i--) await page.mouse.move(x + i * 4, y + i * 2)
  await page.mouse.up()
  const frames = await page.evaluate(() => {
    const w = window as unknown as { frames_: number[]; recording: boolean }
    w.recording = false
    return w.frames_
  })
  const intervals = frames.slice(1).map((t, i) => t - frames[i]!)
  const span = (frames.at(-1)! - frames[0]!) / 1000
  return { fps: (frames.length - 1) / span, frameMs: intervals }
}
