// `npm run new-area -- NAME`: a working empty area in every layer, as docs/adding-an-area.md walks it.
//
// Writes the area's own new files (contract, core handler, CLI command, local-service route, renderer panel,
// and their tests) and adds ONE line to each layer's area list:
//   electron/contract/area-list.ts, electron/core/area-list.ts, electron/cli/commands/area-list.ts,
//   electron/local-service/area-list.ts, src/areas.ts.
// The area is local-only (not a service group of the interface): its one operation `NAME.status` is answered
// by the built-in local service's route `GET /local/NAME/status`, reached from the core handler. See
// docs/decisions/032-area-registries.md for why a new service group is not scaffolded.
//
// Refuses a name that is not [a-z][a-z0-9-]* (no trailing or doubled dash, at most 18 characters, so each
// registration stays one line), or that an area, a folder or a
// command already has, and then writes nothing.
import { existsSync, readFileSync, readdirSync, renameSync, writeFileSync, mkdirSync } from 'node:fs'
import path from 'node:path'

const root = process.env.NEW_AREA_ROOT
  ? path.resolve(process.env.NEW_AREA_ROOT)
  : path.resolve(import.meta.dirname, '..')

/** Names the app uses for its own parts, commands and aliases: never an area's. */
const RESERVED = [
  'app',
  'map',
  'shell',
  'kit',
  'settings',
  'local',
  'fleet',
  'help',
  'call',
  'history',
  'profile',
  'secret',
  'serve',
  'import',
  'datasets',
  'base',
  'client',
  'contract',
  'common',
]

/** Each layer's area list and the one line an area adds to it. */
const LISTS = [
  {
    file: 'electron/contract/area-list.ts',
    line: (n) => `export { ${n.camel}Contract as ${n.key} } from './${n.name}/operations'`,
  },
  {
    file: 'electron/core/area-list.ts',
    line: (n) => `export { register${n.pascal}Handlers as ${n.key} } from './${n.name}/handlers'`,
  },
  {
    file: 'electron/cli/commands/area-list.ts',
    line: (n) => `export { ${n.camel}Commands as ${n.key} } from './${n.name}'`,
  },
  {
    file: 'electron/local-service/area-list.ts',
    line: (n) => `export { ${n.camel}Area as ${n.key} } from './${n.name}/routes'`,
  },
  { file: 'src/areas.ts', line: (n) => `export { default as ${n.key} } from './features/${n.name}/area'` },
]

function fail(message) {
  process.stderr.write(`new-area: ${message}\n`)
  process.exit(2)
}

function namesOf(name) {
  const camel = name.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase())
  const pascal = camel.charAt(0).toUpperCase() + camel.slice(1)
  const title = name
    .split('-')
    .map((w, i) => (i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w))
    .join(' ')
  // The key an area is listed under: its name where that is an identifier, else its camel-case form.
  return { name, camel, pascal, title, key: camel }
}

/** Every area the lists already name, by their keys. */
function registeredKeys() {
  const keys = new Set()
  for (const { file } of LISTS) {
    const text = readFileSync(path.join(root, file), 'utf8')
    for (const m of text.matchAll(/^export \{ [\w$]+ as ([\w$]+) \} from /gm)) keys.add(m[1])
  }
  return keys
}

/** The files of the new area, by path from the repository's root. */
function filesOf(n) {
  const op = `${n.name}.status`
  const route = `/local/${n.name}/status`
  return {
    [`electron/contract/${n.name}/operations.ts`]: `import { z } from 'zod'
import type { ContractArea } from '../area'
import { op, type InterfaceTable } from '../operation'

/** The ${n.name} area's status, as the built-in local service answers it. */
export const ${n.camel}StatusSchema = z.object({
  area: z.literal('${n.name}'),
  ready: z.boolean(),
  /** When the service answered (ISO 8601). */
  servedAt: z.string(),
})

export type ${n.pascal}Status = z.infer<typeof ${n.camel}StatusSchema>

/** What the renderer may ask of the ${n.name} area (\`window.geo['${op}']\`). */
export const ${n.camel}Operations = {
  '${op}': op(z.object({}), ${n.camel}StatusSchema, 'The ${n.name} area’s status, from the built-in local service'),
} as const

/** The ${n.name} area's operations of the interface (spec §4): none; it is not a service group. */
export const ${n.camel}Interface = {} as const satisfies InterfaceTable

/** The ${n.name} area's part of the contract, listed in \`electron/contract/area-list.ts\`. */
export const ${n.camel}Contract = {
  operations: ${n.camel}Operations,
  interface: ${n.camel}Interface,
  events: {},
} as const satisfies ContractArea
`,
    [`electron/local-service/${n.name}/routes.ts`]: `import { BEARER } from '../router'
import type { LocalArea } from '../service-context'

/** Where the service answers the ${n.name} area's status: one of its own extensions, under \`/local\`. */
export const ${n.camel.toUpperCase()}_STATUS_PATH = '${route}'

/** The ${n.name} area of the local service: its routes (and, once it has them, its data and engines). */
export const ${n.camel}Area: LocalArea = {
  name: '${n.name}',
  start(ctx) {
    return {
      routes: [
        {
          method: 'GET',
          path: ${n.camel.toUpperCase()}_STATUS_PATH,
          auth: BEARER,
          body: 'none',
          handle: async () => ({
            status: 200,
            body: { area: '${n.name}', ready: true, servedAt: new Date(ctx.now()).toISOString() },
          }),
        },
      ],
    }
  },
}
`,
    [`electron/core/${n.name}/handlers.ts`]: `import { ${n.camel}Operations, ${n.camel}StatusSchema } from '../../contract/${n.name}/operations'
import type { CoreContext, HandlerRegistry } from '../area'
import { localServiceCall } from '../local-service-call'

/** The ${n.name} area's handlers: its status, asked of the built-in local service. */
export function register${n.pascal}Handlers(registry: HandlerRegistry, core: CoreContext): void {
  const call = localServiceCall(() => core.localService())
  registry.add(${n.camel}Operations, {
    '${op}': async () => ${n.camel}StatusSchema.parse(await (await call('${op}', '${route}')).json()),
  })
}
`,
    [`electron/cli/commands/${n.name}.ts`]: `import { GeoFailure } from '../../base/geo-failure'
import type { CliCommand } from '../context'

/** \`geo-analyst ${n.name} …\`: the ${n.name} area's commands. */
export const ${n.camel}Commands: readonly CliCommand[] = [
  {
    name: '${n.name} status',
    summary: 'The ${n.name} area’s status, from the built-in local service',
    usage: '${n.name} status [--json]',
    async run(ctx, args) {
      if (args.positionals.length > 0)
        throw new GeoFailure('validation', '${n.name} status takes no arguments (see --help)')
      const status = await ctx.invoke('${op}', {})
      ctx.print(status, \`${n.name}: \${status.ready ? 'ready' : 'not ready'} (\${status.servedAt})\`)
    },
  },
]
`,
    [`src/features/${n.name}/area.ts`]: `import { lazyPanel } from '../shell/lazy'
import { defineArea } from '../shell/shell'

/** The ${n.name} area: one side panel that asks the local service for the area's status. */
export default defineArea({
  id: '${n.name}',
  title: '${n.title}',
  order: ${n.order},
  // A circle with a dot: an SVG path on a 24×24 grid.
  icon: 'M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18 M12 11a1 1 0 1 0 0 2a1 1 0 1 0 0-2',
  sidePanels: [
    { id: '${n.name}.status', title: '${n.title}', component: lazyPanel(() => import('./${n.pascal}Panel.vue')) },
  ],
})
`,
    [`src/features/${n.name}/${n.pascal}Panel.vue`]: `<script setup lang="ts">
import { ref } from 'vue'
import type { GeoError, OperationResponse } from '@contract/index'
import { geo } from '../../bridge'
import GeoErrorMessage from '../shell/GeoErrorMessage.vue'

const status = ref<OperationResponse<'${op}'> | null>(null)
const error = ref<GeoError | null>(null)
const busy = ref(false)

async function ask(): Promise<void> {
  busy.value = true
  const result = await geo['${op}']({})
  busy.value = false
  status.value = result.ok ? result.value : null
  error.value = result.ok ? null : result.error
}
</script>

<template>
  <section aria-label="${n.title}">
    <button type="button" :disabled="busy" @click="ask">Ask the local service</button>
    <p v-if="status" role="status">{{ status.ready ? 'Ready' : 'Not ready' }} ({{ status.servedAt }})</p>
    <GeoErrorMessage v-if="error" :error="error" />
  </section>
</template>
`,
    [`src/features/${n.name}/README.md`]: `# ${n.title} (\`${n.name}\`)

Made by \`npm run new-area -- ${n.name}\`: one operation, \`${op}\`, answered by the local service's
\`GET ${route}\`. Fill it as \`docs/adding-an-area.md\` says.

- \`area.ts\`: the area's side panel.
- \`${n.pascal}Panel.vue\`: asks for the status and shows it, or the failure.
`,
    [`test/electron/local-service/${n.name}/routes.test.ts`]: `import { describe, expect, it } from 'vitest'
import { ${n.camel}StatusSchema } from '../../../../electron/contract/${n.name}/operations'
import { ${n.camel.toUpperCase()}_STATUS_PATH } from '../../../../electron/local-service/${n.name}/routes'
import { runService, TOKEN } from '../helpers'

describe('the ${n.name} area of the local service', () => {
  it('answers its status on 127.0.0.1 to the bearer token, and 401 without it', async () => {
    const now = Date.UTC(2026, 0, 2, 3, 4, 5)
    // The whole service, as \`electron/local-service/area-list.ts\` lists its areas.
    const running = await runService({}, { now: () => now })
    try {
      const url = new URL(${n.camel.toUpperCase()}_STATUS_PATH, running.service.urls.mgis_url).href
      const answer = await fetch(url, { headers: { authorization: \`Bearer \${TOKEN}\` } })
      expect(answer.status).toBe(200)
      expect(${n.camel}StatusSchema.parse(await answer.json())).toEqual({
        area: '${n.name}',
        ready: true,
        servedAt: '2026-01-02T03:04:05.000Z',
      })
      expect((await fetch(url)).status).toBe(401)
    } finally {
      await running.stop()
    }
  })
})
`,
    [`test/src/features/${n.name}/${n.name}-panel.test.ts`]: `import { screen, waitFor } from '@testing-library/vue'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { geoError, ok } from '@contract/index'
import * as bridge from '../../../../src/bridge'
import ${n.pascal}Panel from '../../../../src/features/${n.name}/${n.pascal}Panel.vue'
import type { FakeGeo } from '../../support/fake-geo'
import { renderInApp } from '../../support/render'

vi.mock('../../../../src/bridge', async () => {
  const { createFakeGeo } = await import('../../support/fake-geo')
  const fake = createFakeGeo()
  return { geo: fake.geo, geoEvents: fake.geoEvents, fake }
})

const fake = (bridge as unknown as { fake: FakeGeo }).fake
const user = userEvent.setup()

beforeEach(() => fake.reset())

describe('the ${n.title} panel', () => {
  it('asks for the status and shows it', async () => {
    fake.respond('${op}', () => ok({ area: '${n.name}', ready: true, servedAt: '2026-01-02T03:04:05.000Z' }))
    renderInApp(${n.pascal}Panel)
    await user.click(screen.getByRole('button', { name: 'Ask the local service' }))
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Ready (2026-01-02T03:04:05.000Z)'))
  })

  it('says what went wrong when the service cannot answer', async () => {
    fake.failNext('${op}', geoError('local-configuration', '${op}: this host has no local service'))
    renderInApp(${n.pascal}Panel)
    await user.click(screen.getByRole('button', { name: 'Ask the local service' }))
    await waitFor(() => expect(document.body.textContent).toContain('this host has no local service'))
    expect(screen.queryByRole('status')).toBeNull()
  })
})
`,
    [`test/electron/core/${n.name}/handlers.test.ts`]: `import { describe, expect, it } from 'vitest'
import { createCore } from '../../../../electron/core/app-core'
import { MemorySecretStore } from '../../../../electron/core/secrets/memory-secret-store'
import { runService, TOKEN } from '../../local-service/helpers'
import { useTempDirs } from '../../../support/temp-dir'

const tempDir = useTempDirs()

describe('the ${n.name} area in the core', () => {
  it('answers ${op} from the built-in local service, and says so when the host has none', async () => {
    const running = await runService({})
    const core = await createCore({
      configDir: tempDir(),
      host: 'web',
      version: '0.0.0',
      secretStore: new MemorySecretStore(),
      startLocalService: async () => ({
        urls: running.service.urls,
        token: TOKEN,
        licenceKey: 'unused',
        close: async () => undefined,
      }),
    })
    const without = await createCore({
      configDir: tempDir(),
      host: 'web',
      version: '0.0.0',
      secretStore: new MemorySecretStore(),
    })
    try {
      const answer = await core.call('${op}', {})
      expect(answer.ok && answer.value).toMatchObject({ area: '${n.name}', ready: true })
      const refused = await without.call('${op}', {})
      expect(refused.ok ? null : refused.error).toMatchObject({ failureClass: 'local-configuration' })
    } finally {
      await core.close()
      await without.close()
      await running.stop()
    }
  })
})
`,
  }
}

/** Write a file whole or not at all: a temporary sibling renamed into place. */
function writeAtomic(file, text) {
  mkdirSync(path.dirname(file), { recursive: true })
  const temp = `${file}.${process.pid}.tmp`
  writeFileSync(temp, text)
  renameSync(temp, file)
}

function nextOrder() {
  let max = 0
  const dir = path.join(root, 'src/features')
  for (const folder of readdirSync(dir)) {
    const area = path.join(dir, folder, 'area.ts')
    if (!existsSync(area)) continue
    const m = /^ {2}order: (\d+),$/m.exec(readFileSync(area, 'utf8'))
    if (m) max = Math.max(max, Number(m[1]))
  }
  return max + 10
}

const args = process.argv.slice(2)
if (args.length !== 1) fail('usage: npm run new-area -- NAME (one name, e.g. npm run new-area -- probe)')
const name = args[0]
if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name) || name.length > 18)
  fail(
    `"${name}" is not an area name: use at most 18 lower-case letters, digits and single dashes, starting with a letter (e.g. "probe", "air-quality")`,
  )
const n = namesOf(name)
if (RESERVED.includes(name) || registeredKeys().has(n.key))
  fail(`"${name}" is taken: an area or a part of the app already has that name; choose another`)
const files = filesOf({ ...n, order: nextOrder() })
for (const file of [
  ...Object.keys(files),
  `electron/contract/${name}`,
  `electron/core/${name}`,
  `electron/local-service/${name}`,
  `src/features/${name}`,
]) {
  if (existsSync(path.join(root, file)))
    fail(`"${name}" is taken: ${file} exists already; choose another name`)
}
const lists = LISTS.map(({ file, line }) => {
  const full = path.join(root, file)
  const text = readFileSync(full, 'utf8')
  if (!text.endsWith('\n')) fail(`${file} does not end with a line break; fix it first`)
  return { full, file, text: text + line(n) + '\n' }
})

// Formatted as the repository formats (its prettier and its settings), whatever the name's length.
const prettier = await import('prettier')
for (const [file, text] of Object.entries(files)) {
  const full = path.join(root, file)
  const options = (await prettier.resolveConfig(full)) ?? {}
  writeAtomic(full, await prettier.format(text, { ...options, filepath: full }))
}
for (const { full, text } of lists) writeAtomic(full, text)

process.stdout.write(
  [
    `Made the area "${name}":`,
    ...Object.keys(files).map((f) => `  new  ${f}`),
    ...lists.map(({ file }) => `  +1   ${file}`),
    '',
    `Try it: npx vitest run --project node --project dom test/electron/local-service/${name} test/electron/core/${name} test/src/features/${name}`,
    'Then fill it as docs/adding-an-area.md says.',
    '',
  ].join('\n'),
)
