import { z } from 'zod'
import { op, type InterfaceTable } from '../operation'
import type { ContractArea } from '../area'

/** The vision area's operation of the interface (spec §4.10): an image upload. */
export const visionInterface = {
  'vision.blurPlates': {
    section: '4.10',
    summary: 'Blur the license plates of a panorama (.jpg, .jpeg or .png); --out FILE for the image',
    params: [],
    file: true,
  },
} as const satisfies InterfaceTable

/** Largest image the app sends, decoded (the local service's cap; the base64 text is a third longer). */
export const MAX_IMAGE_BYTES = 100 * 1024 * 1024
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

export const blurredBoxSchema = z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() })

const imageType = z.enum(['image/jpeg', 'image/png'])

/** The vision area as the renderer and the CLI call it. */
export const visionOperations = {
  'vision.blur': op(
    z
      .object({
        fileName: z.string().min(1).max(260),
        imageBase64: z
          .string()
          .min(1, 'the image is empty')
          .max(Math.ceil(MAX_IMAGE_BYTES / 3) * 4, `the image is larger than ${MAX_IMAGE_BYTES} bytes`)
          .regex(BASE64, 'must be base64'),
      })
      .strict(),
    z.object({
      contentType: imageType,
      imageBase64: z.string(),
      /** The regions blurred, when the service lists them (the built-in local service does). */
      boxes: z.array(blurredBoxSchema).nullable(),
    }),
    'Blur the license plates of one image (§4.10) on the active profile',
  ),
  'vision.blurFile': op(
    z
      .object({
        inputPath: z.string().min(1),
        outputPath: z.string().min(1),
        /** Replace an existing output file; without it an existing file is a conflict, never overwritten. */
        overwrite: z.boolean().default(false),
      })
      .strict(),
    z.object({
      inputPath: z.string(),
      outputPath: z.string(),
      contentType: imageType,
      boxes: z.array(blurredBoxSchema).nullable(),
    }),
    'Blur the license plates of an image file (§4.10) into another file (desktop and CLI)',
  ),
} as const

/** The vision area's part of the contract, listed in `electron/contract/area-list.ts`. */
export const visionContract = {
  operations: visionOperations,
  interface: visionInterface,
  events: {},
} as const satisfies ContractArea
