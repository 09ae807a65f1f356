/**
 * The file formats a folder workspace's dataset exports to (`export-dataset.ts` writes them): a module of its
 * own so the CLI checks `--format` before it loads any writer.
 */
export const EXPORT_FORMATS = ['geojson', 'csv', 'fgb', 'gpkg'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]
