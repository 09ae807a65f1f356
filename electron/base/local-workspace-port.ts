/**
 * The built-in local workspace as the core sees it. Hosts inject an implementation (the local service's
 * adapter, `electron/local-service/workspace-port.ts`); the core never imports the local service.
 * Implementations throw `GeoFailure` with a failure class naming what is wrong (validation, conflict,
 * not-found) and leave the workspace as it was on any failure.
 */
export interface LocalWorkspacePort {
  /** A dataset's features as RFC 7946 GeoJSON text (WGS84 longitude/latitude). */
  features(name: string): Promise<{ name: string; geojson: string; featureCount: number }>
  /**
   * Import a file's bytes as a new dataset; the file name tells the format (.geojson, .csv, .kml, .zip, ...).
   * Invalid features refuse the file (failure code `invalid-features`) unless `skipInvalid`: then they are
   * left out and counted in `skippedInvalid`.
   */
  importFile(input: {
    fileName: string
    bytes: Uint8Array
    name?: string
    skipInvalid?: boolean
  }): Promise<LocalDatasetInfo>
  /** Import a file the service can read, by path; `fileName` (the name the user knows) defaults to its base name. */
  importPath(input: {
    path: string
    fileName?: string
    name?: string
    skipInvalid?: boolean
  }): Promise<LocalDatasetInfo>
}

/** What the workspace knows about a dataset, in the contract's terms. */
export interface LocalDatasetInfo {
  layername: string
  geometrytype: string
  source: string
  fields: Array<{ name: string; type: string }>
  featureCount: number
  extent?: [number, number, number, number]
  /** Features of the file left out as invalid (import with `skipInvalid`). */
  skippedInvalid?: number
}
