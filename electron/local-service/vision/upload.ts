import { createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import type { IncomingMessage } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import busboy from 'busboy'
import { VisionInputError } from './input-checks'

/** The upload of §4.10 spooled to a temporary file; `dispose` removes it (and the folder it is in). */
export interface SpooledUpload {
  path: string
  dir: string
  fileName: string
  size: number
  dispose(): Promise<void>
}

/** The single file field the operation takes. */
export const UPLOAD_FIELD = 'file'

/**
 * Stream a multipart/form-data body to a temporary file under `maxBytes`: exactly one part, a file named
 * `file`. Anything else (no multipart body, another field, a text field called `file`, a second file, a
 * file over the cap) is a VisionInputError; the temporary file is removed on every failure.
 */
export async function spoolUpload(
  req: IncomingMessage,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<SpooledUpload> {
  const type = req.headers['content-type'] ?? ''
  if (!/^multipart\/form-data\s*;.*boundary=/i.test(type)) {
    throw new VisionInputError(
      'missing-file',
      `the body must be multipart/form-data with one file field "${UPLOAD_FIELD}" (content type was ${type.split(';')[0] || 'none'})`,
    )
  }
  const declared = Number(req.headers['content-length'] ?? 0)
  if (declared > maxBytes + 64 * 1024) {
    throw new VisionInputError(
      'too-large',
      `the body is ${declared} bytes; files of at most ${maxBytes} bytes are accepted`,
    )
  }
  const dir = await mkdtemp(join(tmpdir(), 'geo-analyst-vision-'))
  const dispose = () => rm(dir, { recursive: true, force: true })
  try {
    const upload = await new Promise<{ fileName: string; size: number }>((resolve, reject) => {
      let parser: busboy.Busboy
      try {
        parser = busboy({ headers: req.headers, limits: { fileSize: maxBytes, parts: 16, fieldSize: 1024 } })
      } catch (error) {
        reject(
          new VisionInputError(
            'missing-file',
            `the multipart body cannot be read: ${(error as Error).message}`,
          ),
        )
        return
      }
      let file: Promise<{ fileName: string; size: number }> | undefined
      let failure: Error | undefined
      const fail = (error: Error) => {
        failure ??= error
      }
      parser.on('file', (name, stream, info) => {
        if (file && name === UPLOAD_FIELD) {
          fail(
            new VisionInputError(
              'unexpected-field',
              `only one file is accepted, in the field "${UPLOAD_FIELD}"`,
            ),
          )
          stream.resume()
          return
        }
        if (name !== UPLOAD_FIELD) {
          fail(
            new VisionInputError(
              'unexpected-field',
              `unexpected field "${name}": only the file field "${UPLOAD_FIELD}" is accepted`,
            ),
          )
          stream.resume()
          return
        }
        let size = 0
        let cut = false
        stream.on('data', (chunk: Buffer) => (size += chunk.length))
        stream.on('limit', () => {
          cut = true
          fail(
            new VisionInputError('too-large', `the file is larger than ${maxBytes} bytes, the most accepted`),
          )
        })
        file = pipeline(stream, createWriteStream(join(dir, 'upload'), { mode: 0o600 })).then(() => {
          if (cut) throw failure
          return { fileName: info.filename ?? 'upload', size }
        })
      })
      parser.on('field', (name) => {
        fail(
          new VisionInputError(
            name === UPLOAD_FIELD ? 'missing-file' : 'unexpected-field',
            name === UPLOAD_FIELD
              ? `the field "${UPLOAD_FIELD}" must be a file upload, not text`
              : `unexpected field "${name}": only the file field "${UPLOAD_FIELD}" is accepted`,
          ),
        )
      })
      parser.on('partsLimit', () =>
        fail(
          new VisionInputError(
            'unexpected-field',
            `too many parts: only the file field "${UPLOAD_FIELD}" is accepted`,
          ),
        ),
      )
      parser.on('error', (error: Error) =>
        reject(new VisionInputError('missing-file', `the multipart body cannot be read: ${error.message}`)),
      )
      parser.on('close', () => {
        if (failure) return reject(failure)
        if (!file)
          return reject(new VisionInputError('missing-file', `no file field "${UPLOAD_FIELD}" in the body`))
        file.then(resolve, (error: unknown) => reject(failure ?? error))
      })
      signal?.addEventListener('abort', () => reject(new Error('the client went away during the upload')), {
        once: true,
      })
      req.pipe(parser)
    })
    return { path: join(dir, 'upload'), dir, ...upload, dispose }
  } catch (error) {
    await dispose()
    throw error
  }
}
