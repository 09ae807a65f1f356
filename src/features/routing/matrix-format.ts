import { csvText } from '../../../shared/csv'
import {
  combinationIssues,
  MATRIX_PROFILES,
  MATRIX_RESOURCES,
  type MatrixProfile,
  type MatrixResource,
} from '@contract/routing/matrix'

/** Metres as km with one decimal ("—" for no route). */
export function formatKm(metres: number | null | undefined): string {
  return metres === null || metres === undefined ? '—' : `${(metres / 1000).toFixed(1)} km`
}

/** Seconds as h:mm ("—" for no route). */
export function formatHmm(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '—'
  const minutes = Math.round(seconds / 60)
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`
}

/** 0..1: where a duration sits between the shortest and the longest of the matrix (for heat colouring). */
export function heat(value: number | null, min: number, max: number): number | null {
  if (value === null) return null
  return max > min ? (value - min) / (max - min) : 0
}

export interface MatrixChoice {
  resources: MatrixResource
  profile: MatrixProfile
  /** undefined: not sent (the service's default, least time). */
  rtype?: 0 | 1
}

/**
 * Why an option cannot be chosen with the others (the shared validator's words), or undefined when it can.
 * Forms disable such options and show the reason.
 */
export function optionProblems(choice: MatrixChoice) {
  const reason = (c: MatrixChoice, field: string) => combinationIssues(c).find((i) => i.field === field)?.rule
  return {
    resources: Object.fromEntries(
      MATRIX_RESOURCES.map((r) => [
        r,
        reason({ ...choice, resources: r }, 'profile') ?? reason({ ...choice, resources: r }, 'rtype'),
      ]),
    ) as Record<MatrixResource, string | undefined>,
    profile: Object.fromEntries(
      MATRIX_PROFILES.map((p) => [
        p,
        reason({ ...choice, profile: p }, 'profile') ?? reason({ ...choice, profile: p }, 'rtype'),
      ]),
    ) as Record<MatrixProfile, string | undefined>,
    rtype: {
      0: reason({ ...choice, rtype: 0 }, 'rtype'),
      1: reason({ ...choice, rtype: 1 }, 'rtype'),
    } as Record<0 | 1, string | undefined>,
  }
}

/** The matrix as CSV: a header of destination numbers, one row per source, km and minutes per cell. */
export function matrixCsv(
  sources: number[],
  destinations: number[],
  distances: Array<Array<number | null>>,
  durations: Array<Array<number | null>>,
): string {
  const head = ['from \\ to', ...destinations.flatMap((d) => [`${d + 1} km`, `${d + 1} min`])]
  const rows = sources.map((s, r) => [
    String(s + 1),
    ...destinations.flatMap((_, c) => {
      const m = distances[r]?.[c] ?? null
      const t = durations[r]?.[c] ?? null
      return [m === null ? '' : (m / 1000).toFixed(3), t === null ? '' : (t / 60).toFixed(1)]
    }),
  ])
  return csvText([head, ...rows])
}

/** The matrix as tab-separated text for the clipboard (pastes into a spreadsheet), km and h:mm. */
export function matrixTsv(
  sources: number[],
  destinations: number[],
  distances: Array<Array<number | null>>,
  durations: Array<Array<number | null>>,
): string {
  const head = ['from \\ to', ...destinations.map((d) => String(d + 1))]
  const rows = sources.map((s, r) => [
    String(s + 1),
    ...destinations.map((_, c) => `${formatKm(distances[r]?.[c])} ${formatHmm(durations[r]?.[c])}`),
  ])
  return [head, ...rows].map((row) => row.join('\t')).join('\n') + '\n'
}
