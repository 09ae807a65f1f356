import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { locateModels } from '../../../../electron/local-service/vision/engine/models'

const ROOT = join(import.meta.dirname, '..', '..', '..', '..')
const config = readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')

/** The quoted glob patterns of one top-level list of electron-builder.yml. */
function listOf(key: string): string[] {
  const block = new RegExp(`^${key}:\\n((?:  .*\\n)+)`, 'm').exec(config)?.[1] ?? ''
  return [...block.matchAll(/^\s+- '([^']+)'/gm)].map((m) => m[1] as string)
}

/** electron-builder's globs as far as this file uses them: `**`, `*` and `{a,b}`. */
function globToRegExp(glob: string): RegExp {
  let re = ''
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string
    if (c === '*' && glob[i + 1] === '*') {
      re += '.*'
      i++
    } else if (c === '*') re += '[^/]*'
    else if (c === '{') {
      const end = glob.indexOf('}', i)
      re += `(?:${glob
        .slice(i + 1, end)
        .split(',')
        .join('|')})`
      i = end
    } else re += c.replace(/[.+?^$()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${re}$`)
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    return statSync(full).isDirectory() ? filesUnder(full) : [full]
  })
}

describe('packaging of the vision area (every installer target)', () => {
  const unpack = listOf('asarUnpack').map(globToRegExp)
  const unpacked = (file: string) => unpack.some((re) => re.test(relative(ROOT, file).split('\\').join('/')))

  it('unpacks the model files from the asar archive', () => {
    for (const file of Object.values(locateModels())) expect(unpacked(file), file).toBe(true)
  })

  it('unpacks the native runtimes: ONNX Runtime and sharp with its libvips', () => {
    const natives = [
      ...filesUnder(join(ROOT, 'node_modules', 'onnxruntime-node', 'bin')),
      ...filesUnder(join(ROOT, 'node_modules', '@img')).filter((f) => /\.(node|so[.\d]*|dylib|dll)$/.test(f)),
    ]
    expect(natives.length).toBeGreaterThan(2)
    for (const file of natives) expect(unpacked(file), file).toBe(true)
  })

  it('is set for the top level (all targets), not for one platform', () => {
    expect(config).toMatch(/^asarUnpack:/m)
    for (const platform of ['linux', 'win', 'mac']) {
      const block = new RegExp(`^${platform}:\\n((?:  .*\\n)+)`, 'm').exec(config)?.[1] ?? ''
      expect(block).not.toContain('asarUnpack')
    }
  })
})
