import { z } from 'zod'
import { joinColumnSchema, type JoinRun, type joinRunRequestSchema } from '../../contract'
import type { JoinParams } from '../../contract/gis/join-params'
import type { JoinOutcome } from '../../contract/gis/layers'

/** A join as the renderer asks for it (`gis.join`). */
export type JoinRunInput = z.output<typeof joinRunRequestSchema>

/** A result value as the table shows it: text as is, null as empty, objects as JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

const columnsSchema = z.array(joinColumnSchema)

/**
 * The provider's answer as the renderer's `JoinRun`: every value a string; `columns` when the provider
 * says where each prop came from (the local service does); partial for 206; the saved dataset's name.
 * The rows are the parsed answer's own objects: a value that is not a string is turned into text in place,
 * nothing is copied (a million-row answer is not rebuilt).
 */
export function joinRunFromOutcome(
  runId: string,
  outcome: JoinOutcome,
  params: JoinParams,
  durationMs: number,
): JoinRun {
  const response = outcome.response as Record<string, unknown> & { result: Record<string, unknown>[] }
  const rows = response.result
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!
    for (const key of Object.keys(row)) {
      const value = row[key]
      // defineProperty, so that a member named "__proto__" stays a member.
      if (typeof value !== 'string')
        Object.defineProperty(row, key, { value: cellText(value), enumerable: true, writable: true })
    }
  }
  const columns = columnsSchema.safeParse(response.columns)
  const saved =
    typeof response.savedDataset === 'string'
      ? response.savedDataset
      : outcome.reconciled === 'found'
        ? params.newDatasetNme
        : undefined
  return {
    runId,
    rows: rows as Array<Record<string, string>>,
    ...(columns.success ? { columns: columns.data } : {}),
    partial: outcome.partial,
    ...(saved ? { savedDataset: saved } : {}),
    ...(outcome.reconciled ? { reconciled: outcome.reconciled } : {}),
    ...(outcome.reconciled ? {} : { status: outcome.partial ? 206 : 200 }),
    durationMs,
  }
}
