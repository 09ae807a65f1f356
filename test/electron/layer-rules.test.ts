import { ESLint } from 'eslint'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, '../..') })

async function violations(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message)
}

describe('layer rules of the architecture, enforced by lint', () => {
  it.each([
    ['electron/contract/x.ts', "import fs from 'node:fs'\nexport const a = fs"],
    [
      'electron/contract/x.ts',
      "import { resolveConfigDir } from '../core/paths'\nexport const a = resolveConfigDir",
    ],
    ['electron/core/x.ts', "import { app } from 'electron'\nexport const a = app"],
    ['electron/core/x.ts', "import { ref } from 'vue'\nexport const a = ref"],
    ['electron/local-service/x.ts', "import Map from 'ol/Map'\nexport const a = Map"],
    ['electron/core/x.ts', "import { runCli } from '../cli/run'\nexport const a = runCli"],
    [
      'electron/local-service/gis/x.ts',
      "import { createClient } from '../../core/client/create-client'\nexport const a = createClient",
    ],
    [
      'electron/core/gis/x.ts',
      "import { startLocalService } from '../../local-service/index'\nexport const a = startLocalService",
    ],
    ['electron/base/x.ts', "import { Transport } from '../core/http/transport'\nexport const a = Transport"],
    ['src/x.ts', "import fs from 'node:fs'\nexport const a = fs"],
    ['src/x.ts', "import { ipcRenderer } from 'electron'\nexport const a = ipcRenderer"],
    [
      'src/features/x.ts',
      "import { createCore } from '../../electron/core/app-core'\nexport const a = createCore",
    ],
  ])('refuses in %s: %s', async (file, code) => {
    expect(await violations(file, code)).not.toEqual([])
  })

  it.each([
    [
      'electron/contract/x.ts',
      "import { z } from 'zod'\nimport { ok } from './result'\nexport const a = [z, ok]",
    ],
    [
      'electron/core/x.ts',
      "import fs from 'node:fs'\nimport { ok } from '../contract'\nexport const a = [fs, ok]",
    ],
    ['electron/main/x.ts', "import { app } from 'electron'\nexport const a = app"],
    [
      'electron/local-service/gis/x.ts',
      "import { writeFileAtomic } from '../../base/atomic-write'\nexport const a = writeFileAtomic",
    ],
    ['electron/core/x.ts', "import { GeoFailure } from '../base/geo-failure'\nexport const a = GeoFailure"],
    [
      'src/x.ts',
      "import { ok } from '../electron/contract'\nimport { ref } from 'vue'\nexport const a = [ok, ref]",
    ],
    ['src/x.ts', "import { ok } from '@contract/index'\nexport const a = ok"],
  ])('allows in %s: %s', async (file, code) => {
    expect(await violations(file, code)).toEqual([])
  })
})
