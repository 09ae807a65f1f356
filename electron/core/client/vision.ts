import { fail, ok, type Result } from '../../contract'
import { issuesFailure } from '../../contract/common/issues'
import {
  BLURRED_BOXES_HEADER,
  parseBlurredBoxes,
  sniffImage,
  validateBlurPlates,
  type BlurredBox,
  type ImageType,
} from '../../contract/vision/blur-plates'
import { execute, providerHint, type ClientContext } from './execute'
import { noParams, type CallOptions, type CallTable } from './call-input'
import type { visionInterface } from '../../contract/vision/operations'
import { GeoFailure } from '../../base/geo-failure'

export interface BlurredImage {
  contentType: string
  bytes: Uint8Array
  /** The regions blurred, when the service says (the built-in local service does; the spec does not). */
  boxes?: BlurredBox[]
}

/** §4.10 POST {aiml_url}/license_plate_blur_pano, multipart field `file`. An upload: never resent after an ambiguous failure. */
export function visionClient(ctx: ClientContext) {
  return {
    async blurPlates(
      input: { fileName?: string; bytes?: Uint8Array },
      options: CallOptions = {},
    ): Promise<Result<BlurredImage>> {
      const checked = validateBlurPlates(input)
      if (!checked.ok) return issuesFailure('vision.blurPlates', checked.issues)
      const file = checked.value
      return execute<BlurredImage>(ctx, {
        operation: 'vision.blurPlates',
        group: 'vision',
        base: 'aiml_url',
        method: 'POST',
        path: () => ['license_plate_blur_pano'],
        body: {
          kind: 'multipart',
          field: 'file',
          fileName: file.fileName,
          contentType: file.contentType,
          bytes: file.bytes,
        },
        replayable: false,
        signal: options.signal,
        interpret: (res) => {
          const declared = res.headers.get('content-type') ?? ''
          const kind: ImageType | undefined = sniffImage(res.body)
          if (!kind) {
            const hint = /json|text/.test(declared) ? providerHint(res, ctx.redactor) : ''
            return fail(
              'unclassified',
              `vision.blurPlates: the provider answered HTTP ${res.status} without an image (${declared || 'no content type'}, ${res.body.byteLength} bytes)${hint}`,
              {
                status: res.status,
              },
            )
          }
          const boxes = parseBlurredBoxes(res.headers.get(BLURRED_BOXES_HEADER))
          return ok({ contentType: kind, bytes: res.body, ...(boxes ? { boxes } : {}) })
        },
      })
    },
  }
}

export type VisionClient = ReturnType<typeof visionClient>

/** The area's interface operation for callers such as `geo-analyst call`. */
export const visionCalls = {
  'vision.blurPlates': async (client, input) => {
    noParams('vision.blurPlates', input, 'takes only --file')
    if (!input.file)
      throw new GeoFailure('validation', 'vision.blurPlates needs --file IMAGE (.jpg, .jpeg or .png)', {
        field: 'file',
      })
    return client.vision.blurPlates(input.file, { signal: input.signal })
  },
} satisfies CallTable<typeof visionInterface, { vision: VisionClient }>

/** The vision group's part of the client, listed in `area-list.ts`: its client and its calls. */
export const visionClientArea = { client: visionClient, calls: visionCalls }
