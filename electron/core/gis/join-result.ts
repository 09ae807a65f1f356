import { z } from 'zod'
import { joinColumnSchema, type JoinRun, type joinRunRequestSchema } from '../../contract'
import type { JoinParams } from '../../contract/gis/join-params'
import type { JoinOutcome } from '../../contract/gis/layers'
import type { PartTap } from '../../contract/frames'
import type { RowsTap } from '../../../shared/rows/join-body'

/** A join as the renderer asks for it (`gis.join`). */
export type JoinRunInput = z.output<typeof joinRunRequestSchema>

const columnsSchema = z.array(joinColumnSchema)

/**
 * The provider's answer as the renderer's `JoinRun`: the rows as the bytes that came (read by the renderer
 * with `RowTable`, values as text); `columns` when the provider says where each prop came from (the local
 * service does); partial for 206; the saved dataset's name.
 */
export function joinRunFromOutcome(
  runId: string,
  outcome: JoinOutcome,
  params: JoinParams,
  durationMs: number,
): JoinRun {
  const response = outcome.response
  const columns = columnsSchema.safeParse(response.columns)
  const saved =
    typeof response.savedDataset === 'string'
      ? response.savedDataset
      : outcome.reconciled === 'found'
        ? params.newDatasetNme
        : undefined
  return {
    runId,
    // A view of the transport's own copy of this answer (envelope and rows, nothing else): a clone of its
    // whole buffer across Electron's IPC shows the renderer only this answer.
    rowsJson: response.rows.bytes,
    rowCount: response.rows.length,
    ...(columns.success ? { columns: columns.data } : {}),
    partial: outcome.partial,
    ...(saved ? { savedDataset: saved } : {}),
    ...(outcome.reconciled ? { reconciled: outcome.reconciled } : {}),
    ...(outcome.reconciled ? {} : { status: outcome.partial ? 206 : 200 }),
    durationMs,
  }
}

/**
 * A join's rows, as the client reads them, forwarded to where the host sends the answer's parts: they are
 * the `rowsJson` of the `JoinRun` it will answer, whose `rowCount` the provider may declare first.
 */
export function rowsTapOf(tap: PartTap): RowsTap {
  return {
    begin: (declaredRows, expectedBytes) =>
      tap.begin({
        key: 'rowsJson',
        holder: declaredRows === undefined ? {} : { rowCount: declaredRows },
        ...(expectedBytes === undefined ? {} : { expectedBytes }),
      }),
    more: (bytes) => tap.more(bytes),
  }
}
