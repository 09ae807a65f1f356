/**
 * Find controls the way a person (or the e2e tests) would: by role and accessible name.
 * A small subset of the accessible-name rules: aria-label, aria-labelledby, <label for>, wrapping <label>, text.
 */
function textOf(element: Element): string {
  return (element.textContent ?? '').replace(/\s+/g, ' ').trim()
}

export function accessibleName(element: Element): string {
  const label = element.getAttribute('aria-label')
  if (label) return label.trim()
  const labelledBy = element.getAttribute('aria-labelledby')
  if (labelledBy) {
    return labelledBy
      .split(/\s+/)
      .map((id) => element.ownerDocument.getElementById(id))
      .filter((e): e is HTMLElement => e !== null)
      .map(textOf)
      .join(' ')
  }
  if (element.id) {
    const forLabel = element.ownerDocument.querySelector(`label[for="${CSS.escape(element.id)}"]`)
    if (forLabel) return textOf(forLabel)
  }
  const wrapping = element.closest('label')
  if (wrapping) return textOf(wrapping)
  return textOf(element)
}

export function getByRole<E extends Element = HTMLElement>(
  root: ParentNode,
  role: string,
  name: string | RegExp,
): E {
  const found = queryAllByRole<E>(root, role, name)
  if (found.length !== 1) {
    const names = queryAllByRole(root, role, /.*/).map(accessibleName)
    throw new Error(
      `expected one ${role} named ${String(name)}, found ${found.length}; ${role}s: ${names.join(' | ')}`,
    )
  }
  return found[0] as E
}

const IMPLICIT: Record<string, string> = {
  button: 'button, input[type=submit], input[type=button]',
  textbox: 'input:not([type]), input[type=text], input[type=url], textarea',
  password: 'input[type=password]',
  combobox: 'select',
  radio: 'input[type=radio]',
  heading: 'h1, h2, h3, h4, h5, h6',
  alert: '[role=alert]',
  region: 'section[aria-label], section[aria-labelledby]',
  dialog: 'dialog',
  list: 'ul, ol',
}

export function queryAllByRole<E extends Element = HTMLElement>(
  root: ParentNode,
  role: string,
  name: string | RegExp,
): E[] {
  const selector = [`[role="${role}"]`, IMPLICIT[role]].filter(Boolean).join(', ')
  return [...root.querySelectorAll<E>(selector)].filter((element) => {
    const explicit = element.getAttribute('role')
    if (explicit && explicit !== role) return false
    const accessible = accessibleName(element)
    return typeof name === 'string' ? accessible === name : name.test(accessible)
  })
}

/** A text input (any type, including password) by its label. */
export function getInputByLabel(root: ParentNode, label: string): HTMLInputElement {
  const inputs = [...root.querySelectorAll<HTMLInputElement>('input')].filter(
    (i) => accessibleName(i) === label,
  )
  if (inputs.length !== 1) throw new Error(`expected one input labelled "${label}", found ${inputs.length}`)
  return inputs[0] as HTMLInputElement
}
