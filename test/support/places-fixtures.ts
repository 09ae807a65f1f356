import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import type { StandardizedAddressResult } from '../../electron/local-service/places/engine/woodpecker'

/**
 * The labelled addresses of test/fixtures/places/*.jsonl and their scoring: per-field precision and
 * recall of the standardizer (used by the accuracy test and by `npm run bench:places`).
 * Labelling rules: test/fixtures/places/README.md.
 */

export const FIELDS = [
  'pin',
  'state',
  'city',
  'locality',
  'houseNo',
  'road',
  'landmark',
  'careOf',
  'floor',
] as const
export type Field = (typeof FIELDS)[number]

export interface LabelledAddress extends Partial<Record<Field, string>> {
  address: string
}

const dir = path.resolve(import.meta.dirname, '..', 'fixtures', 'places')

/** The labelled addresses of every fixture file, or of the files whose name matches `only`. */
export function loadLabelledAddresses(only?: RegExp): LabelledAddress[] {
  const out: LabelledAddress[] = []
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl') && (!only || only.test(f)))
    .sort()) {
    for (const line of readFileSync(path.join(dir, file), 'utf8').split('\n')) {
      if (line.trim()) out.push(JSON.parse(line) as LabelledAddress)
    }
  }
  return out
}

const loose = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9\p{Script=Devanagari}]+/gu, '')

/** What the standardizer said for a field (several readings for names: standardized and as written). */
export function predicted(result: StandardizedAddressResult | null, field: Field): string[] {
  if (!result) return []
  const ref = result.referentialInformation
  const admin = result.addressInformation.adminDetails
  const named = (level: 'state' | 'city' | 'locality') => {
    const a = admin[level]
    return a ? [a.originalName, a.inputName ?? ''].filter(Boolean) : []
  }
  switch (field) {
    case 'pin':
      return ref.pincodes ? [ref.pincodes] : []
    case 'state':
    case 'city':
    case 'locality':
      return named(field)
    case 'houseNo':
      return ref.houseNumbers.houseNo ? [ref.houseNumbers.houseNo] : []
    case 'road':
      return ref.roads ? [ref.roads] : []
    case 'landmark':
      return ref.landmarks ? [ref.landmarks] : []
    case 'careOf':
      return ref.careOfs ? [ref.careOfs] : []
    case 'floor':
      return ref.floors ? [ref.floors] : []
  }
}

export interface FieldScore {
  field: Field
  labelled: number
  predicted: number
  correct: number
  precision: number
  recall: number
}

export interface Miss {
  address: string
  field: Field
  expected: string
  got: string
}

/** Per-field precision (correct / predicted) and recall (correct / labelled) over the labelled set. */
export function scoreAddresses(
  labelled: readonly LabelledAddress[],
  run: (address: string) => StandardizedAddressResult | null,
): { scores: FieldScore[]; misses: Miss[] } {
  const counts = new Map<Field, { labelled: number; predicted: number; correct: number }>(
    FIELDS.map((f) => [f, { labelled: 0, predicted: 0, correct: 0 }]),
  )
  const misses: Miss[] = []
  for (const item of labelled) {
    const result = run(item.address)
    for (const field of FIELDS) {
      const c = counts.get(field)!
      const expected = (item[field] ?? '').split('|').map(loose).filter(Boolean)
      const got = predicted(result, field).map(loose).filter(Boolean)
      if (expected.length) c.labelled++
      if (got.length) c.predicted++
      const right = expected.length > 0 && got.some((g) => expected.includes(g))
      if (right) c.correct++
      else if (expected.length || got.length)
        misses.push({
          address: item.address,
          field,
          expected: item[field] ?? '',
          got: predicted(result, field).join(' / '),
        })
    }
  }
  const scores = FIELDS.map((field) => {
    const c = counts.get(field)!
    return {
      field,
      ...c,
      precision: c.predicted ? c.correct / c.predicted : 1,
      recall: c.labelled ? c.correct / c.labelled : 1,
    }
  })
  return { scores, misses }
}
