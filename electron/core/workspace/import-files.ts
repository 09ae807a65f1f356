/** A file a host holds for an import: where it is on disk and what the user called it. */
export interface ImportFile {
  path: string
  /** The file's own name, which tells the format and the default dataset name. */
  fileName: string
  size: number
}

/**
 * How a host turns the opaque file reference of `datasets.import` into a file on disk: the desktop
 * app's grants for files the user chose or dropped, the browser host's uploads. The renderer never
 * names a path. A reference is taken once; `release` runs when the import is over, whatever its end.
 */
export interface ImportFiles {
  /** Throws a `GeoFailure` (not-found) for a reference that is unknown, used or expired. */
  take(ref: string): Promise<ImportFile & { release(): Promise<void> }>
}
