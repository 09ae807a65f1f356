import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { writeFileAtomic, writeJsonAtomic } from '../../../electron/base/atomic-write'
import { useTempDirs } from '../../support/temp-dir'

const tempDir = useTempDirs()

describe('writeFileAtomic', () => {
  it('replaces a file whole, private to its owner, and leaves no temporary sibling', async () => {
    const dir = tempDir()
    const file = path.join(dir, 'nested', 'settings.json')
    await writeFileAtomic(file, 'first')
    await writeJsonAtomic(file, { second: true })
    expect(readFileSync(file, 'utf8')).toBe('{\n  "second": true\n}\n')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(readdirSync(path.dirname(file))).toEqual(['settings.json'])
  })

  it('keeps the old content and leaves nothing behind when the new one cannot be put in place', async () => {
    const dir = tempDir()
    const target = path.join(dir, 'project.json')
    // A folder where the file should go: the rename over it fails after the temporary file was written.
    mkdirSync(target)
    writeFileSync(path.join(target, 'keep'), 'x')
    await expect(writeFileAtomic(target, 'new')).rejects.toThrow()
    expect(readdirSync(dir)).toEqual(['project.json'])
    expect(readFileSync(path.join(target, 'keep'), 'utf8')).toBe('x')
  })
})
