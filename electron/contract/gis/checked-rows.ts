/**
 * A join's rows as they cross the contract: checked — a JSON array of objects (or one object, or null),
 * every value valid JSON — and counted, their bytes not read into a table. The row codec that checks and
 * reads them is `shared/rows` (its `CheckedRows` is this shape; `RowTable.read(bytes)` reads them); the
 * contract imports only zod and itself, so it keeps this type of its own.
 */
export interface CheckedRows {
  /** The JSON of the rows, as received. */
  readonly bytes: Uint8Array
  readonly length: number
}
