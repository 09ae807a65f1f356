/**
 * Keyboard movement inside one composite widget (a tablist, a toolbar), as the ARIA practices describe:
 * arrow keys along the orientation move to the next or previous item and wrap, Home and End go to the
 * ends; Tab leaves the widget (only the current item is in the tab order).
 */
export type Orientation = 'horizontal' | 'vertical'

/** The index a key moves to, or null when the key is not a movement key for this orientation. */
export function movedIndex(
  key: string,
  current: number,
  count: number,
  orientation: Orientation,
): number | null {
  if (count <= 0) return null
  const [back, forward] = orientation === 'vertical' ? ['ArrowUp', 'ArrowDown'] : ['ArrowLeft', 'ArrowRight']
  if (key === forward) return (current + 1) % count
  if (key === back) return (current - 1 + count) % count
  if (key === 'Home') return 0
  if (key === 'End') return count - 1
  return null
}

/**
 * Handle a keydown on one of `items` (the widget's focusable children, in order): move focus, and
 * return the new index (or null when the key was not ours, so the event goes on as usual).
 */
export function moveFocus(
  event: KeyboardEvent,
  items: readonly HTMLElement[],
  orientation: Orientation,
): number | null {
  const enabled = items.filter((item) => !item.hasAttribute('disabled'))
  const current = enabled.indexOf(event.currentTarget as HTMLElement)
  const next = movedIndex(event.key, Math.max(0, current), enabled.length, orientation)
  if (next === null) return null
  event.preventDefault()
  enabled[next]?.focus()
  return items.indexOf(enabled[next]!)
}
