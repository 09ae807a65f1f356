/** The text a sighted person reads on an element: its text, without what is hidden or `aria-hidden`. */
export function visibleText(el: Element): string {
  let text = ''
  for (const node of el.childNodes) {
    if (node.nodeType === Node.TEXT_NODE) text += node.textContent ?? ''
    else if (node instanceof Element) {
      if ((node instanceof HTMLElement && node.hidden) || node.getAttribute('aria-hidden') === 'true')
        continue
      text += ` ${visibleText(node)} `
    }
  }
  return text.replace(/\s+/g, ' ').trim()
}

/** A control's accessible name as the page gives it: aria-labelledby, aria-label, or its own text. */
export function accessibleName(el: Element): string {
  const labelledBy = el.getAttribute('aria-labelledby')
  if (labelledBy)
    return labelledBy
      .split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ')
      .trim()
  return el.getAttribute('aria-label')?.trim() || visibleText(el)
}

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}_]+/u)
    .filter(Boolean)

/**
 * The controls under `root` whose accessible name does not contain their visible text, word for word and in
 * order (WCAG 2.5.3 "Label in name", as axe's `label-content-name-mismatch` checks it).
 */
export function labelNotInName(root: ParentNode = document.body): string[] {
  const controls = root.querySelectorAll('button, a[href], [role="button"], [role="tab"], [role="link"]')
  return [...controls].flatMap((el) => {
    const seen = words(visibleText(el))
    if (seen.length === 0) return []
    const name = words(accessibleName(el))
    const found = name.some((_, i) => seen.every((w, j) => name[i + j] === w))
    return found ? [] : [`"${visibleText(el)}" is not in its name "${accessibleName(el)}"`]
  })
}
