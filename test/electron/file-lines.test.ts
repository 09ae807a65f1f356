import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { FILE_LIMIT, overLimit, STORE_LIMIT } from '../../scripts/check-file-lines.mjs'
import { useTempDirs } from '../support/temp-dir'

describe('file lengths, checked in CI (npm run check:lines)', () => {
  const tempDir = useTempDirs()

  function tree(files: Record<string, string>): string {
    const root = tempDir()
    for (const [name, text] of Object.entries(files)) {
      const file = path.join(root, name)
      mkdirSync(path.dirname(file), { recursive: true })
      writeFileSync(file, text)
    }
    return root
  }
  const lines = (n: number, first = '') =>
    [first, ...Array.from({ length: n - 1 }, (_, i) => `// ${i}`)].join('\n') + '\n'

  it('names a product file past 600 lines and a store past 250, and lets the limits themselves pass', () => {
    const root = tree({
      'electron/core/long.ts': lines(FILE_LIMIT + 1),
      'electron/core/at-limit.ts': lines(FILE_LIMIT),
      'src/features/a/a-store.ts': lines(STORE_LIMIT + 1, "const s = defineStore('a', () => ({}))"),
      'src/features/b/b-store.ts': lines(STORE_LIMIT, "const s = defineStore('b', () => ({}))"),
      'src/features/c/Panel.vue': lines(FILE_LIMIT + 5),
      'shared/types.d.ts': lines(FILE_LIMIT + 50),
      'test/huge.test.ts': lines(FILE_LIMIT * 2),
    })
    expect(overLimit(root)).toEqual([
      { file: 'src/features/c/Panel.vue', lines: FILE_LIMIT + 5, limit: FILE_LIMIT, kind: 'file' },
      { file: 'electron/core/long.ts', lines: FILE_LIMIT + 1, limit: FILE_LIMIT, kind: 'file' },
      { file: 'src/features/a/a-store.ts', lines: STORE_LIMIT + 1, limit: STORE_LIMIT, kind: 'store' },
    ])
  })

  it('the product itself keeps to the limits', () => {
    expect(overLimit()).toEqual([])
  })
})
