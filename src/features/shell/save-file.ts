import type { ExportFormat, GeoError } from '@contract/index'
import { geo } from '../../bridge'

export type { ExportFormat }

const MIME: Record<ExportFormat, string> = {
  geojson: 'application/geo+json',
  csv: 'text/csv',
  png: 'image/png',
  pdf: 'application/pdf',
  project: 'application/json',
}

/** Where an export went: a path (desktop), a download (browser), or nowhere (the user cancelled). */
export type SaveOutcome = { ok: true; savedTo: string | null } | { ok: false; error: GeoError }

let hostKind: Promise<string> | null = null
function host(): Promise<string> {
  hostKind ??= geo['app.info']({}).then((r) => (r.ok ? r.value.host : 'web'))
  return hostKind
}

async function base64Of(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer())
  let text = ''
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(text)
}

/**
 * Save what the app exports — text parts (GeoJSON, CSV, project files) or bytes (PNG, PDF) — through the
 * desktop save dialog in Electron (`export.save`), as a download (Blob + <a download>) in the browser host.
 */
export async function saveExport(
  parts: Array<string | Blob>,
  suggestedName: string,
  format: ExportFormat,
): Promise<SaveOutcome> {
  const blob = new Blob(parts, { type: MIME[format] })
  if ((await host()) === 'electron') {
    const binary = format === 'png' || format === 'pdf'
    const result = await geo['export.save']({
      suggestedName,
      format,
      content: binary
        ? await base64Of(blob)
        : parts.every((p) => typeof p === 'string')
          ? parts.join('')
          : await blob.text(),
      ...(binary ? { encoding: 'base64' as const } : {}),
    })
    return result.ok ? { ok: true, savedTo: result.value.path } : { ok: false, error: result.error }
  }
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
