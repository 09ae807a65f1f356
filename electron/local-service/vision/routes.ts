import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { BLURRED_BOXES_HEADER } from '../../contract/vision/blur-plates'
import { errorBody, HttpError } from '../http-util'
import { busyError } from '../pool/busy-error'
import { JobCancelled, PoolFull } from '../pool/worker-pool'
import { BEARER, type Reply, type Route, type RouteRequest } from '../router'
import type { LocalArea, ServiceContext } from '../service-context'
import { VisionInputError } from './input-checks'
import { VISION_LIMITS } from './limits'
import { spoolUpload } from './upload'

/** Most boxes listed in the header (it must stay well under Node's header size limit). */
const MAX_HEADER_BOXES = 100

function inputReply(error: VisionInputError, closeConnection = false): Reply {
  return {
    status: 400,
    body: errorBody(400, error.message, { problem: error.problem, field: 'file' }),
    headers: closeConnection ? { connection: 'close' } : {},
  }
}

/**
 * Spec §4.10: POST {aiml_url}/license_plate_blur_pano. The multipart body streams to a temporary file under
 * the size cap; the upload is checked (type by its bytes, size, pixel count) before it queues; the blurring
 * runs in the worker pool and stops when the client goes away. 400 with a JSON body names what is wrong with
 * the upload; 503 with Retry-After when the pool's queue is full; 500 only for faults of ours.
 */
async function blurPlates(ctx: ServiceContext, request: RouteRequest): Promise<Reply | void> {
  let upload
  try {
    upload = await spoolUpload(request.req, VISION_LIMITS.maxBytes, request.signal)
  } catch (error) {
    if (error instanceof VisionInputError) {
      // the rest of the body is not read: let the client finish sending, then close
      request.req.resume()
      return inputReply(error, true)
    }
    if (request.signal.aborted) return
    throw error
  }
  try {
    // the image library loads with the first upload: starting the service (and the CLI) stays light
    const { inspectUpload } = await import('./engine/blur-image')
    const info = await inspectUpload(upload.path).catch((error: unknown) => {
      if (error instanceof VisionInputError) return error
      throw error
    })
    if (info instanceof VisionInputError) return inputReply(info)
    const outputPath = join(upload.dir, `blurred.${info.format === 'jpeg' ? 'jpg' : 'png'}`)
    const result = await ctx.pool.run(
      'vision.blur',
      { kind: 'vision.blur', inputPath: upload.path, outputPath },
      { signal: request.signal, weight: info.width * info.height },
    )
    if (!result.ok) {
      if (result.error.kind === 'input')
        return inputReply(new VisionInputError(result.error.problem, result.error.message))
      throw new HttpError(500, `the plates could not be blurred: ${result.error.message}`)
    }
    const bytes = await readFile(outputPath)
    const boxes = result.value.boxes
      .slice(0, MAX_HEADER_BOXES)
      .map((b) => ({ x: b.x, y: b.y, w: b.w, h: b.h }))
    request.res.writeHead(200, {
      'content-type': result.value.contentType,
      'content-length': bytes.byteLength,
      'cache-control': 'no-store',
      [BLURRED_BOXES_HEADER]: JSON.stringify(boxes),
    })
    request.res.end(bytes)
  } catch (error) {
    if (error instanceof JobCancelled) return
    if (error instanceof PoolFull) throw busyError(error)
    throw error
  } finally {
    await upload.dispose()
  }
}

/** The vision area of the local service (spec §4.10). */
export const visionArea: LocalArea = {
  name: 'vision',
  start(ctx) {
    const routes: Route[] = [
      {
        method: 'POST',
        path: '/aiml/license_plate_blur_pano',
        auth: BEARER,
        body: 'multipart',
        handle: (r) => blurPlates(ctx, r),
      },
    ]
    return { routes }
  },
}
