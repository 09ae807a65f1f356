import { promises as fs } from 'node:fs'
import path from 'node:path'
import type { Result } from '../../contract'
import { MAX_IMAGE_BYTES, visionOperations } from '../../contract/vision/operations'
import type { CoreContext, HandlerRegistry } from '../area'
import type { BlurredImage } from '../client/vision'
import { writeFileAtomic } from '../../base/atomic-write'
import { GeoFailure } from '../../base/geo-failure'

/**
 * Plate blurring takes long on big panoramas (tens of seconds on a busy CPU, queued behind other images):
 * one attempt may take minutes, and an upload is never resent blindly.
 */
export const VISION_TRANSPORT = {
  retry: { attemptTimeoutMs: 5 * 60_000, totalBudgetMs: 5 * 60_000, maxAttempts: 1 },
  maxResponseBytes: 2 * MAX_IMAGE_BYTES,
} as const

function unwrap<T>(result: Result<T>): T {
  if (!result.ok) {
    const { failureClass, message, ...extra } = result.error
    throw new GeoFailure(failureClass, message, extra)
  }
  return result.value
}

async function readImage(file: string): Promise<Uint8Array> {
  const stat = await fs.stat(file).catch(() => null)
  if (!stat?.isFile())
    throw new GeoFailure('validation', `${file} is not a readable file`, { field: 'inputPath' })
  if (stat.size > MAX_IMAGE_BYTES)
    throw new GeoFailure('validation', `${file} is ${stat.size} bytes; at most ${MAX_IMAGE_BYTES} are sent`, {
      field: 'inputPath',
    })
  return new Uint8Array(await fs.readFile(file))
}

/** License-plate blurring on the active profile, cloud or built-in local service alike. */
export function registerVisionHandlers(registry: HandlerRegistry, core: CoreContext): void {
  const client = core.clientWith(VISION_TRANSPORT)
  const blur = async (fileName: string, bytes: Uint8Array): Promise<BlurredImage> => {
    await core.readyProfile()
    return unwrap(await client.vision.blurPlates({ fileName, bytes }))
  }
  registry.add(visionOperations, {
    'vision.blur': async ({ fileName, imageBase64 }) => {
      const image = await blur(fileName, new Uint8Array(Buffer.from(imageBase64, 'base64')))
      return {
        contentType: image.contentType === 'image/png' ? ('image/png' as const) : ('image/jpeg' as const),
        imageBase64: Buffer.from(image.bytes).toString('base64'),
        boxes: image.boxes ?? null,
      }
    },
    'vision.blurFile': async ({ inputPath, outputPath, overwrite }) => {
      if (path.resolve(inputPath) === path.resolve(outputPath))
        throw new GeoFailure('validation', `${outputPath} is the input itself: choose another output`, {
          field: 'outputPath',
        })
      if (!overwrite && (await fs.stat(outputPath).catch(() => null)))
        throw new GeoFailure('conflict', `${outputPath} exists: nothing is overwritten without asking`, {
          field: 'outputPath',
        })
      const image = await blur(path.basename(inputPath), await readImage(inputPath))
      await writeFileAtomic(outputPath, image.bytes, { mode: 0o644 })
      return {
        inputPath,
        outputPath,
        contentType: image.contentType === 'image/png' ? ('image/png' as const) : ('image/jpeg' as const),
        boxes: image.boxes ?? null,
      }
    },
  })
}
