import { randomBytes } from 'node:crypto'
import { createWriteStream, promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { IMPORT_MAX_BYTES, type ImportFileRef } from '../contract'
import { GeoFailure } from '../base/geo-failure'
import type { ImportFile, ImportFiles } from '../core/workspace/import-files'
import { BodyTooLarge } from './body'
import { uploadDirPrefix } from '../base/upload-staging'

export interface UploadStoreOptions {
  /** Largest upload (default: the app's import limit). */
  maxBytes?: number
  /** An upload not imported by then is deleted (default 15 minutes). */
  ttlMs?: number
  /** Where the private upload folder is made (default: the OS temp folder). */
  tempDir?: string
}

interface Upload extends ImportFile {
  dir: string
  timer: NodeJS.Timeout
}

/**
 * Files the browser host received for import (`POST /api/upload`): each streamed to a private temp
 * file (folder 0700, file 0600) under the size limit, known by an opaque random id that
 * `datasets.import` names. The file is deleted after its import, or when nobody imported it in time,
 * or when the host closes.
 */
export class UploadStore implements ImportFiles {
  readonly maxBytes: number
  private readonly ttlMs: number
  private readonly tempDir: string
  private root: Promise<string> | undefined
  private readonly uploads = new Map<string, Upload>()

  constructor(options: UploadStoreOptions = {}) {
    this.maxBytes = options.maxBytes ?? IMPORT_MAX_BYTES
    this.ttlMs = options.ttlMs ?? 15 * 60_000
    this.tempDir = options.tempDir ?? os.tmpdir()
  }

  /** Stream `body` to a new private file; rejects with `BodyTooLarge` past the limit (nothing is kept). */
  async receive(body: Readable, fileName: string): Promise<ImportFileRef> {
    const id = randomBytes(18).toString('base64url')
    const dir = await this.uploadDir(id)
    const file = path.join(dir, diskName(fileName))
    let size = 0
    const limit = this.maxBytes
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length
        done(size > limit ? new BodyTooLarge(limit) : null, chunk)
      },
    })
    // The body is piped, not handed to the pipeline: a refusal must not destroy the request, so the
    // host can still answer 413 on its connection.
    const cutOff = () => {
      if (!body.readableEnded) count.destroy(new Error('the upload was cut off'))
    }
    body.once('close', cutOff)
    body.pipe(count)
    try {
      await pipeline(count, createWriteStream(file, { flags: 'wx', mode: 0o600 }))
    } catch (error) {
      body.unpipe(count)
      await fs.rm(dir, { recursive: true, force: true })
      throw error
    } finally {
      body.off('close', cutOff)
    }
    const timer = setTimeout(() => void this.discard(id), this.ttlMs)
    timer.unref()
    this.uploads.set(id, { path: file, fileName, size, dir, timer })
    return { file: id, fileName, size }
  }

  async take(ref: string): Promise<ImportFile & { release(): Promise<void> }> {
    const upload = this.uploads.get(ref)
    if (!upload) {
      throw new GeoFailure(
        'not-found',
        'datasets.import: no upload with this reference (it was imported already, or expired); send the file again',
        { field: 'file' },
      )
    }
    this.uploads.delete(ref)
    clearTimeout(upload.timer)
    return {
      path: upload.path,
      fileName: upload.fileName,
      size: upload.size,
      release: () => fs.rm(upload.dir, { recursive: true, force: true }),
    }
  }

  /** Uploads held now (not imported, not expired). */
  get pending(): number {
    return this.uploads.size
  }

  async close(): Promise<void> {
    for (const upload of this.uploads.values()) clearTimeout(upload.timer)
    this.uploads.clear()
    if (this.root) await fs.rm(await this.root, { recursive: true, force: true })
  }

  private async discard(id: string): Promise<void> {
    const upload = this.uploads.get(id)
    if (!upload) return
    this.uploads.delete(id)
    await fs.rm(upload.dir, { recursive: true, force: true })
  }

  /**
   * A new private folder for one upload, under this process's upload folder: made by mkdtemp (0700, so
   * other users of the machine cannot list or read uploads) and named `geo-analyst-upload-<pid>-…`, the
   * name the local service's start-up sweep removes once this process is gone. Made again if a sweep
   * took it meanwhile.
   */
  private async uploadDir(id: string): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      this.root ??= fs.mkdtemp(uploadDirPrefix('upload', this.tempDir))
      const dir = path.join(await this.root, id)
      try {
        await fs.mkdir(dir, { mode: 0o700 })
        return dir
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt > 0) throw error
        this.root = undefined
      }
    }
  }
}

/**
 * The upload's file name as the browser sent it (`X-File-Name`, URI-encoded), checked: a plain name of
 * 1–255 characters with no folder part. Null when missing or malformed.
 */
export function uploadFileName(header: string | string[] | undefined): string | null {
  if (typeof header !== 'string') return null
  let name: string
  try {
    name = decodeURIComponent(header)
  } catch {
    return null
  }
  // eslint-disable-next-line no-control-regex
  if (!name || name.length > 255 || /[/\\\x00-\x1f]/.test(name) || name === '.' || name === '..') return null
  return name
}

/** A safe name on disk that keeps the extension (it tells the importer the format). */
function diskName(fileName: string): string {
  return (
    fileName
      .replace(/[^\w.-]+/g, '_')
      .replace(/^\.+/, '')
      .slice(-200) || 'upload'
  )
}
