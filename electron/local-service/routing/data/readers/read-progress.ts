/** Thrown when an import is cancelled; the importer removes what it staged. */
export class ImportCancelled extends Error {
  constructor() {
    super('the import was cancelled')
    this.name = 'ImportCancelled'
  }
}

/** What a reader reports as it goes, and how it learns it should stop. */
export interface ReadProgress {
  /** Bytes of the current pass read so far. */
  bytes(done: number, total: number): void
  /** Throws ImportCancelled when the import was cancelled. */
  check(): void
}
