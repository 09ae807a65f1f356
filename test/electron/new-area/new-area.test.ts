import { spawn } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * `npm run new-area -- probe` in a copy of the repository: it makes a working empty area, touching outside the
 * probe's own new files at most six files by one added line each, and the copy then typechecks, lints and
 * passes the probe's own tests. Also: a bad or taken name is refused, naming why, and nothing is written.
 */
const root = path.resolve(import.meta.dirname, '../../..')
const SKIPPED = new Set(['node_modules', 'out', '.git', path.join('bench', '.data')])
const MINUTES = 60_000

let copy: string

/** Every file of the copy (its own, not node_modules) and its bytes. */
function files(dir: string, base = dir, out = new Map<string, Buffer>()): Map<string, Buffer> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    const rel = path.relative(base, full)
    if (SKIPPED.has(rel) || entry.isSymbolicLink()) continue
    if (entry.isDirectory()) files(full, base, out)
    else if (entry.isFile()) out.set(rel, readFileSync(full))
  }
  return out
}

function run(
  command: string,
  args: string[],
  timeoutMs: number,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    // Not this test run's vitest settings: the copy's tools run as they would from a shell.
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !/^(VITEST|TEST$|NODE_ENV$)/.test(k)),
    )
    const child = spawn(command, args, { cwd: copy, env: { ...env, NO_COLOR: '1' } })
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (err += d))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(
        new Error(`${command} ${args.join(' ')} took longer than ${timeoutMs / 1000} s:\n${out}\n${err}`),
      )
    }, timeoutMs)
    child.on('error', reject)
    child.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, out, err })
    })
  })
}

/** The repository's own tools, run by node (npx would add its own warnings to what is checked). */
const BINS: Record<string, string> = {
  tsc: 'node_modules/typescript/bin/tsc',
  'vue-tsc': 'node_modules/vue-tsc/bin/vue-tsc.js',
  eslint: 'node_modules/eslint/bin/eslint.js',
  prettier: 'node_modules/prettier/bin/prettier.cjs',
  vitest: 'node_modules/vitest/vitest.mjs',
}
const tool = (name: string, args: string[], timeoutMs: number) =>
  run(process.execPath, [BINS[name]!, ...args], timeoutMs)

/** The probe's own new files: its folders, and its files named for it. */
const own = (rel: string) => rel.split(path.sep).includes('probe') || path.basename(rel) === 'probe.ts'

beforeAll(() => {
  copy = mkdtempSync(path.join(os.tmpdir(), 'geo-new-area-'))
  cpSync(root, copy, {
    recursive: true,
    filter: (source) => !SKIPPED.has(path.relative(root, source)),
  })
  symlinkSync(path.join(root, 'node_modules'), path.join(copy, 'node_modules'), 'dir')
})

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true })
})

describe('npm run new-area', () => {
  it(
    'refuses a bad or taken name, saying why, and writes nothing',
    async () => {
      const before = files(copy)
      const refusals: Array<[string[], RegExp]> = [
        [['Probe'], /"Probe" is not an area name: use at most 18 lower-case letters/],
        [['probe_1'], /"probe_1" is not an area name/],
        [['probe-'], /"probe-" is not an area name/],
        [['1probe'], /"1probe" is not an area name/],
        [['a-very-long-area-name'], /"a-very-long-area-name" is not an area name: use at most 18/],
        [['places'], /"places" is taken/],
        [['telematics'], /"telematics" is taken/],
        [['fleet'], /"fleet" is taken/],
        [['map'], /"map" is taken/],
        [[], /usage: npm run new-area -- NAME/],
        [['probe', 'other'], /usage: npm run new-area -- NAME/],
      ]
      for (const [args, message] of refusals) {
        const refused = await run(process.execPath, ['scripts/new-area.mjs', ...args], MINUTES)
        expect(refused.code, args.join(' ')).toBe(2)
        expect(refused.err).toMatch(message)
        expect(refused.out).toBe('')
      }
      const after = files(copy)
      expect([...after.keys()]).toEqual([...before.keys()])
      for (const [file, bytes] of after) expect(bytes.equals(before.get(file)!), file).toBe(true)
    },
    2 * MINUTES,
  )

  it(
    'scaffolds probe with one line in at most six files, and the copy typechecks, lints and passes its tests',
    async () => {
      const before = files(copy)
      const made = await run('npm', ['run', '--silent', 'new-area', '--', 'probe'], 2 * MINUTES)
      expect(made.err).toBe('')
      expect(made.code).toBe(0)
      const after = files(copy)

      const added = [...after.keys()].filter((f) => !before.has(f))
      const changed = [...after.keys()].filter((f) => before.has(f) && !before.get(f)!.equals(after.get(f)!))
      const removed = [...before.keys()].filter((f) => !after.has(f))
      expect(removed).toEqual([])
      expect(added.filter((f) => !own(f))).toEqual([])
      expect(added).toEqual(
        expect.arrayContaining([
          path.join('electron', 'contract', 'probe', 'operations.ts'),
          path.join('electron', 'core', 'probe', 'handlers.ts'),
          path.join('electron', 'cli', 'commands', 'probe.ts'),
          path.join('electron', 'local-service', 'probe', 'routes.ts'),
          path.join('src', 'features', 'probe', 'area.ts'),
          path.join('test', 'electron', 'local-service', 'probe', 'routes.test.ts'),
          path.join('test', 'src', 'features', 'probe', 'probe-panel.test.ts'),
        ]),
      )
      expect(changed.length).toBeGreaterThan(0)
      expect(changed.length).toBeLessThanOrEqual(6)
      for (const file of changed) {
        const was = before.get(file)!.toString('utf8').split('\n')
        const now = after.get(file)!.toString('utf8').split('\n')
        expect(now.length, file).toBe(was.length + 1)
        const at = now.findIndex((line, i) => line !== was[i])
        expect([...now.slice(0, at), ...now.slice(at + 1)], file).toEqual(was)
        expect(now[at], file).toMatch(/probe/)
      }

      const node = await tool('tsc', ['--noEmit', '-p', 'tsconfig.node.json'], 8 * MINUTES)
      expect(node.out + node.err, 'tsc -p tsconfig.node.json').not.toMatch(/error TS/)
      expect(node.code).toBe(0)
      const web = await tool('vue-tsc', ['--noEmit', '-p', 'tsconfig.web.json'], 8 * MINUTES)
      expect(web.out + web.err, 'vue-tsc -p tsconfig.web.json').not.toMatch(/error TS/)
      expect(web.code).toBe(0)
      const lintable = [...added, ...changed].filter((f) => /\.(ts|vue|mjs)$/.test(f))
      const lint = await tool('eslint', ['--max-warnings', '0', ...lintable], 5 * MINUTES)
      expect(lint.out + lint.err, 'eslint').toBe('')
      expect(lint.code).toBe(0)
      const format = await tool('prettier', ['--check', ...added, ...changed], MINUTES)
      expect(format.code, format.out + format.err).toBe(0)

      const tests = added.filter((f) => f.endsWith('.test.ts'))
      expect(tests.length).toBeGreaterThanOrEqual(3)
      const probeTests = await tool(
        'vitest',
        ['run', '--project', 'node', '--project', 'dom', ...tests],
        5 * MINUTES,
      )
      expect(probeTests.out + probeTests.err).toMatch(new RegExp(`Test Files +${tests.length} passed`))
      expect(probeTests.code).toBe(0)

      const again = await run(process.execPath, ['scripts/new-area.mjs', 'probe'], MINUTES)
      expect(again.code).toBe(2)
      expect(again.err).toMatch(/"probe" is taken/)
    },
    30 * MINUTES,
  )
})
