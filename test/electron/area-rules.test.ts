import { ESLint } from 'eslint'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, '../..') })

async function violations(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message)
}

describe('renderer areas do not import each other, enforced by lint', () => {
  it.each([
    ['src/features/gis/x.ts', "import { useRoutingStore } from '../routing/routing-store'"],
    ['src/features/gis/results/x.ts', "import { useRoutingStore } from '../../routing/routing-store'"],
    ['src/features/places/x.ts', "import { useFleetStore } from '../telematics/fleet-store'"],
    ['src/features/telematics/a/b/x.ts', "import { x } from '../../../gis/composer/join-form'"],
    ['src/features/routing/x.ts', "import { saveProject } from '../map/project/project-io'"],
  ])('refuses in %s: %s', async (file, code) => {
    const found = await violations(file, `${code}\nexport const a = 1`)
    expect(found.join('\n')).toMatch(/does not import another area's folder/)
  })

  it('refuses it in a component’s script too', async () => {
    const sfc = `<script setup lang="ts">\nimport { useRoutingStore } from '../routing/routing-store'\nuseRoutingStore()\n</script>\n`
    expect((await violations('src/features/places/X.vue', sfc)).join()).toMatch(/another area's folder/)
  })

  it('still applies the renderer’s layer rules in an area’s files', async () => {
    expect(
      (await violations('src/features/gis/x.ts', "import fs from 'node:fs'\nexport const a = fs")).join(),
    ).toMatch(/never imports Node built-ins/)
  })

  it.each([
    ['src/features/gis/x.ts', "import { defineArea } from '../shell/shell'"],
    ['src/features/gis/results/x.ts', "import { useMapLayer } from '../../map/layers/use-map-layer'"],
    ['src/features/places/x.ts', "import { useOlMap } from '../map/view/map-context'"],
    ['src/features/routing/x.ts', "import { useSettingsStore } from '../settings/settings-store'"],
    ['src/features/gis/results/x.ts', "import { rowsOf } from '../datasets/rows'"],
    ['src/features/gis/results/x.ts', "import { palette } from '../../../kit/palette'"],
    ['src/features/vision/x.ts', "import { extentOf } from '../../geo/extent'"],
    ['src/features/shell/x.ts', "import { useMapStore } from '../map/view/map-store'"],
  ])('allows in %s: %s', async (file, code) => {
    expect(await violations(file, `${code}\nexport const a = 1`)).toEqual([])
  })
})
