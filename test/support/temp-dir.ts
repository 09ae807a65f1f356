import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach } from 'vitest'

/** A fresh folder under the OS temp dir, removed after the test. */
export function useTempDirs(): () => string {
  const made: string[] = []
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
  })
  return () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'geo-analyst-test-'))
    made.push(dir)
    return dir
  }
}
