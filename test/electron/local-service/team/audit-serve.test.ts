import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempDir } from '../helpers'
import { bearer, teamUsers } from './team-users'

/** `geo-analyst serve --audit-log FILE --audit-all`, and the team server's default audit file, run for real. */
const root = path.resolve(import.meta.dirname, '../../../..')
const children: ChildProcess[] = []
const dirs: string[] = []
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGINT')
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })))
})

/** Start `serve` and wait for the port it prints; its stderr on failure. */
async function serve(args: string[]): Promise<{ origin: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(root, 'electron/cli/main.ts'),
      'serve',
      '--port',
      '0',
      '--no-sample',
      ...args,
    ],
    { cwd: root, env: { ...process.env, GEO_ANALYST_TOKEN: '', GEO_ANALYST_LICENCE_KEY: '' } },
  )
  children.push(child)
  let out = ''
  let err = ''
  child.stderr!.on('data', (d) => (err += d))
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d
      const m = /on 127\.0\.0\.1:(\d+)/.exec(out)
      if (m) resolve(m[1]!)
    })
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${err}`)))
  })
  return { origin: `http://127.0.0.1:${port}`, child }
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 50))
}

describe('serve --audit-log / --audit-all', () => {
  it('a team server (--users) audits to <workspace>/audit.log by default: refusals, not reads', async () => {
    const dir = await tempDir('geo-audit-serve-')
    dirs.push(dir)
    const users = await teamUsers(dir)
    const workspace = path.join(dir, 'ws')
    const { origin } = await serve(['--users', users.file, '--workspace', workspace])
    expect(
      (await fetch(`${origin}/mgis/v2/getLayersList`, { headers: bearer(users.tokens.ann!) })).status,
    ).toBe(404)
    expect((await fetch(`${origin}/mgis/v2/getLayersList`, { headers: bearer('nobody') })).status).toBe(401)
    const file = path.join(workspace, 'audit.log')
    await until(() => existsSync(file) && readFileSync(file, 'utf8').includes('\n'))
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(lines).toEqual([expect.objectContaining({ operation: 'GET /mgis/v2/getLayersList', status: 401 })])
  }, 60_000)

  it('--audit-log FILE --audit-all records reads too, in that file', async () => {
    const dir = await tempDir('geo-audit-serve-')
    dirs.push(dir)
    const users = await teamUsers(dir)
    const file = path.join(dir, 'logs', 'team-audit.log')
    const { origin } = await serve([
      '--users',
      users.file,
      '--workspace',
      path.join(dir, 'ws'),
      '--audit-log',
      file,
      '--audit-all',
    ])
    expect(
      (await fetch(`${origin}/mgis/v2/getLayersList`, { headers: bearer(users.tokens.bob!) })).status,
    ).toBe(404)
    await until(() => existsSync(file) && readFileSync(file, 'utf8').includes('\n'))
    expect(JSON.parse(readFileSync(file, 'utf8').trim())).toMatchObject({
      user: 'bob',
      operation: 'GET /mgis/v2/getLayersList',
      outcome: 'failed',
      status: 404,
    })
    expect(existsSync(path.join(dir, 'ws', 'audit.log'))).toBe(false)
  }, 60_000)

  it('--audit-all without an audit log is refused, saying what is missing', async () => {
    const dir = await tempDir('geo-audit-serve-')
    dirs.push(dir)
    await expect(serve(['--workspace', path.join(dir, 'ws'), '--audit-all'])).rejects.toThrow(
      /--audit-all needs an audit log: --audit-log FILE or --users/,
    )
  }, 60_000)
})
