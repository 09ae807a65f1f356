import type { JoinRun } from '@contract/index'

/** A column of the results table: the row key (prop1…) and the name the table shows. */
export interface ResultColumn {
  key: string
  label: string
}

/**
 * Column names from the response's `columns` ("name (source)", "name (ref)") when the service gives
 * them, else the member names found in the rows (prop1…prop8), in number order.
 */
export function resultColumns(keys: readonly string[], columns: JoinRun['columns']): ResultColumn[] {
  const propNumber = (k: string) => Number(/^prop(\d+)$/.exec(k)?.[1] ?? Number.MAX_SAFE_INTEGER)
  const ordered = keys
    .filter((k) => k !== '__i')
    .sort((a, b) => propNumber(a) - propNumber(b) || a.localeCompare(b))
  if (columns && columns.length > 0) {
    const named = columns.map((c) => ({ key: c.prop, label: `${c.name} (${c.table})` }))
    const known = new Set(named.map((c) => c.key))
    return [...named, ...ordered.filter((k) => !known.has(k)).map((k) => ({ key: k, label: k }))]
  }
  return ordered.map((k) => ({ key: k, label: k }))
}

/** Columns whose values read as numbers, judged on a sample of up to `sample` non-empty values each. */
export function numericColumnKeys(
  table: { length: number; cell(index: number, key: string): string },
  columns: readonly ResultColumn[],
  sample = 5000,
): Set<string> {
  const keys = new Set<string>()
  for (const c of columns) {
    let seen = 0
    let numeric = true
    for (let i = 0; i < table.length && seen < sample; i++) {
      const v = table.cell(i, c.key)
      if (v === '') continue
      seen++
      if (!Number.isFinite(Number(v))) {
        numeric = false
        break
      }
    }
    if (numeric) keys.add(c.key)
  }
  return keys
}
