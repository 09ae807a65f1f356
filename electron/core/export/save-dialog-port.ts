import type { ExportFormat } from '../../contract'

export type { ExportFormat }

/**
 * A desktop save dialog: asks the user where to write an export, then writes it atomically. Only the
 * Electron host has one (`electron/main/save-dialog.ts`); the browser host downloads instead.
 */
export interface SaveDialogPort {
  /** The path written, or null when the user cancelled the dialog. */
  save(request: {
    suggestedName: string
    format: ExportFormat
    content: string | Uint8Array
  }): Promise<string | null>
}
