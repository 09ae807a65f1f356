import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { findCycles } from '../../scripts/check-import-cycles.mjs'
import { useTempDirs } from '../support/temp-dir'

describe('import cycles, checked in CI (npm run check:cycles)', () => {
  const tempDir = useTempDirs()

  function files(tree: Record<string, string>): string[] {
    const root = tempDir()
    return Object.entries(tree).map(([name, text]) => {
      const file = path.join(root, name)
      mkdirSync(path.dirname(file), { recursive: true })
      writeFileSync(file, text)
      return file
    })
  }

  it('finds a loop through type-only imports and index files, and names its modules', () => {
    const found = findCycles(
      files({
        'a.ts': "import type { B } from './b'\nexport type A = B",
        'b/index.ts': "import { c } from '../c'\nexport type B = typeof c",
        'c.ts': "export { a } from './a'\nexport const c = 1",
        'd.ts': "import { c } from './c'\nexport const d = c",
      }),
    )
    expect(found).toHaveLength(1)
    expect(found[0]!.map((f) => path.basename(f)).sort()).toEqual(['a.ts', 'c.ts', 'index.ts'])
  })

  it('reads a .vue file by its script and leaves a lazy import() out', () => {
    const found = findCycles(
      files({
        'Panel.vue':
          '<template><p/></template>\n<script setup lang="ts">\nimport { s } from \'./store\'\n</script>',
        'store.ts': "export const s = () => import('./Panel.vue')",
      }),
    )
    expect(found).toEqual([])
    const looped = findCycles(
      files({
        'Panel2.vue': '<script setup lang="ts">\nimport { s } from \'./store2\'\n</script>',
        'store2.ts': "import Panel from './Panel2.vue'\nexport const s = Panel",
      }),
    )
    expect(looped).toHaveLength(1)
  })

  it('the product has none', async () => {
    const { execFileSync } = await import('node:child_process')
    const out = execFileSync(process.execPath, ['scripts/check-import-cycles.mjs'], { encoding: 'utf8' })
    expect(out).toMatch(/^No import cycles among \d+ modules\./)
  })
})
