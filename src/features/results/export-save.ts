import type { GeoError } from '@contract/index'
import { geo } from '../../bridge'

export type ExportFormat = 'geojson' | 'csv'

const MIME: Record<ExportFormat, string> = {
  geojson: 'application/geo+json',
  csv: 'text/csv',
}

/** Where an export went: a path (desktop), a download (browser), or nowhere (the user cancelled). */
export type SaveOutcome = { ok: true; savedTo: string | null } | { ok: false; error: GeoError }

let hostKind: Promise<string> | null = null
function host(): Promise<string> {
  hostKind ??= geo['app.info']({}).then((r) => (r.ok ? r.value.host : 'web'))
  return hostKind
}

/** Through the desktop save dialog in Electron, as a download (Blob + <a download>) in the browser host. */
export async function saveExport(
  parts: string[],
  suggestedName: string,
  format: ExportFormat,
): Promise<SaveOutcome> {
  if ((await host()) === 'electron') {
    const result = await geo['export.save']({ suggestedName, format, content: parts.join('') })
    return result.ok ? { ok: true, savedTo: result.value.path } : { ok: false, error: result.error }
  }
  const blob = new Blob(parts, { type: MIME[format] })
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = suggestedName
  a.style.display = 'none'
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
  return { ok: true, savedTo: suggestedName }
}

/** For tests: forget the host kind read from app.info. */
export function resetExportHost(): void {
  hostKind = null
}
