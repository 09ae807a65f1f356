import { app, dialog, type BrowserWindow, type SaveDialogOptions } from 'electron'
import path from 'node:path'
import type { ExportFormat, SaveDialogPort } from '../core/export/save-dialog-port'
import { writeFileAtomic } from '../base/atomic-write'

const FILTERS: Readonly<Record<ExportFormat, { name: string; extensions: string[] }>> = {
  geojson: { name: 'GeoJSON', extensions: ['geojson', 'json'] },
  csv: { name: 'CSV with a WKT column', extensions: ['csv'] },
  png: { name: 'PNG image', extensions: ['png'] },
  pdf: { name: 'PDF document', extensions: ['pdf'] },
  project: { name: 'Geo Analyst project', extensions: ['geoproject.json', 'json'] },
}

/** The dialog's options: the suggested name in the user's documents folder, one filter for the format. */
export function saveDialogOptions(
  request: { suggestedName: string; format: ExportFormat },
  documentsDir: string,
): SaveDialogOptions {
  const filter = FILTERS[request.format]
  let name = path.basename(request.suggestedName.replace(/\\/g, '/'))
  if (!filter.extensions.some((ext) => name.toLowerCase().endsWith(`.${ext}`)))
    name += `.${filter.extensions[0]}`
  return {
    title: 'Export',
    defaultPath: path.join(documentsDir, name),
    filters: [filter, { name: 'All files', extensions: ['*'] }],
    properties: ['createDirectory', 'showOverwriteConfirmation'],
  }
}

/**
 * Exports in the Electron shell: the system save dialog (attached to the app window), then an atomic
 * write so a crash never leaves a torn file. Null when the user cancels.
 */
export class ElectronSaveDialog implements SaveDialogPort {
  /** The window the dialog belongs to; set once the window exists. */
  parent: BrowserWindow | undefined

  async save(request: {
    suggestedName: string
    format: ExportFormat
    content: string | Uint8Array
  }): Promise<string | null> {
    const options = saveDialogOptions(request, app.getPath('documents'))
    const parent = this.parent && !this.parent.isDestroyed() ? this.parent : undefined
    const chosen = parent
      ? await dialog.showSaveDialog(parent, options)
      : await dialog.showSaveDialog(options)
    if (chosen.canceled || !chosen.filePath) return null
    await writeFileAtomic(chosen.filePath, request.content, { mode: 0o644 })
    return chosen.filePath
  }
}
