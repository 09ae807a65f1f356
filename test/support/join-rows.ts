import type { JoinRun } from '../../electron/contract'
import { RowTable } from '../../shared/rows/row-table'

/** A join run's rows as the core hands them on: the provider's JSON bytes and their count. */
export function withRows(
  rows: ReadonlyArray<Readonly<Record<string, unknown>>>,
): Pick<JoinRun, 'rowsJson' | 'rowCount'> {
  return { rowsJson: new TextEncoder().encode(JSON.stringify(rows)), rowCount: rows.length }
}

/** A join run's rows read back as objects of strings (as the table shows them). */
export function rowsOf(run: Pick<JoinRun, 'rowsJson'>): Array<Record<string, string>> {
  return RowTable.read(run.rowsJson).rows()
}
