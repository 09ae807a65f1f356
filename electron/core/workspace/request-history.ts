import { promises as fs } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { FAILURE_CLASSES } from '../../contract'
import type { Redactor } from '../http/redactor'

/** One call as remembered: never a credential (the URL and message are redacted before writing). */
export const historyEntrySchema = z.object({
  time: z.string(),
  operation: z.string(),
  method: z.string(),
  url: z.string(),
  status: z.number().int().optional(),
  failureClass: z.enum(FAILURE_CLASSES).optional(),
  attempts: z.number().int(),
  durationMs: z.number(),
  fingerprint: z.string().optional(),
  message: z.string().optional(),
})

export type HistoryEntry = z.infer<typeof historyEntrySchema>

export interface HistoryRecorder {
  record(entry: HistoryEntry): Promise<void>
}

/** Default bound: the live file rotates to `requests.1.jsonl` past 1 MiB; one rotated file is kept. */
export const DEFAULT_HISTORY_MAX_BYTES = 1024 * 1024

export function historyFile(dataDir: string): string {
  return path.join(dataDir, 'history', 'requests.jsonl')
}

/**
 * Request history as JSON lines in `<dataDir>/history/requests.jsonl`. Appends are serialized; each
 * entry is redacted again on the way in; the file rotates when it grows past its bound, so its size stays
 * under twice the bound. A damaged line is skipped when reading, never fatal.
 */
export class RequestHistory implements HistoryRecorder {
  readonly file: string
  private lock: Promise<unknown> = Promise.resolve()

  constructor(
    dataDir: string,
    private readonly redactor: Redactor,
    private readonly maxBytes = DEFAULT_HISTORY_MAX_BYTES,
  ) {
    this.file = historyFile(dataDir)
  }

  record(entry: HistoryEntry): Promise<void> {
    const safe = this.redactor.redactDeep(entry)
    const line = JSON.stringify(historyEntrySchema.parse(safe)) + '\n'
    const run = this.lock.then(async () => {
      await fs.mkdir(path.dirname(this.file), { recursive: true })
      const size = await fs.stat(this.file).then(
        (s) => s.size,
        () => 0,
      )
      if (size > 0 && size + line.length > this.maxBytes) {
        await fs.rename(this.file, this.file.replace(/\.jsonl$/, '.1.jsonl'))
      }
      await fs.appendFile(this.file, line, { encoding: 'utf8', mode: 0o600 })
    })
    this.lock = run.catch(() => undefined)
    return run
  }

  /** The newest entries first, at most `limit`, from the live file then the rotated one. */
  async list(limit = 50): Promise<HistoryEntry[]> {
    await this.lock
    const out: HistoryEntry[] = []
    for (const file of [this.file, this.file.replace(/\.jsonl$/, '.1.jsonl')]) {
      let text: string
      try {
        text = await fs.readFile(file, 'utf8')
      } catch {
        continue
      }
      const lines = text.split('\n').filter(Boolean).reverse()
      for (const line of lines) {
        if (out.length >= limit) return out
        try {
          const parsed = historyEntrySchema.safeParse(JSON.parse(line))
          if (parsed.success) out.push(parsed.data)
        } catch {
          // A torn last line (crash mid-append) is skipped.
        }
      }
    }
    return out
  }
}
