/** Read a File in the renderer as base64 (FileReader), reporting progress as a fraction 0..1. */
export function readFileAsBase64(file: Blob, onProgress: (fraction: number) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total)
    }
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'))
    reader.onabort = () => reject(new Error('reading the file was cancelled'))
    reader.onload = () => {
      const url = String(reader.result ?? '')
      const comma = url.indexOf(',')
      onProgress(1)
      resolve(comma >= 0 ? url.slice(comma + 1) : '')
    }
    reader.readAsDataURL(file)
  })
}

/** File types the local workspace imports (see the local service's import). */
export const IMPORT_EXTENSIONS = [
  '.geojson',
  '.json',
  '.ndjson',
  '.csv',
  '.kml',
  '.zip',
  '.fgb',
  '.gpkg',
] as const

/** Decoded size limit of datasets.import. */
export const IMPORT_MAX_BYTES = 256 * 1024 * 1024

/** Why a file cannot be imported, before reading it; null when it can be tried. */
export function importFileProblem(name: string, size: number): string | null {
  const lower = name.toLowerCase().replace(/\.gz$/, '')
  if (!IMPORT_EXTENSIONS.some((ext) => lower.endsWith(ext))) {
    return `${name}: only ${IMPORT_EXTENSIONS.join(', ')} files (optionally .gz) can be imported`
  }
  if (size > IMPORT_MAX_BYTES) {
    return `${name}: ${(size / 1024 / 1024).toFixed(0)} MiB is over the 256 MiB import limit`
  }
  if (size === 0) return `${name}: the file is empty`
  return null
}
