import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { AuditLog, type AuditEntry } from '../../../../electron/local-service/team/audit-log'
import { noteRoute, runAs } from '../../../../electron/local-service/team/principal'
import { feature, runService, square, tempDir, TOKEN, type Running } from '../helpers'
import { bearer, saveQuery, teamUsers } from './team-users'

/**
 * The audit log (issue 32): a real service on 127.0.0.1 writing real files — what a write and a refusal
 * record, that no secret nor body ever lands in it, rotation under concurrent requests, a failing disk.
 */
const MARKER = 'AUDITMARKER7f3e9c'

const running: Running[] = []
const servers: Server[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.stop()))
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))))
})

const datasets = {
  places: [feature({ type: 'Point', coordinates: [1, 1] }, { id: 1, name: 'a' })],
  zones: [feature(square(0, 0, 5, 5), { zone: 'west' })],
}

/** Every line of the log files (the current one and the rotated ones), parsed; throws on a cut line. */
function entries(file: string): AuditEntry[] {
  const dir = path.dirname(file)
  const names = readdirSync(dir).filter(
    (n) => n === path.basename(file) || n.startsWith(path.basename(file) + '.'),
  )
  return names.flatMap((n) => {
    const text = readFileSync(path.join(dir, n), 'utf8')
    expect(text === '' || text.endsWith('\n')).toBe(true)
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as AuditEntry)
  })
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 20))
}

describe('audit log over HTTP', () => {
  it('records writes and refusals with their user, never a token, a licence key or a body; not reads', async () => {
    const dir = await tempDir('geo-audit-')
    const file = path.join(dir, 'audit.log')
    const users = await teamUsers(dir)
    const run = await runService(datasets, { auditLog: { file }, usersFile: users.file })
    running.push(run)
    const { service } = run
    const join = (name: string, headers: Record<string, string>, body: unknown) =>
      fetch(`${service.urls.mgis_url}/query_apply/join?${saveQuery(name)}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    // A save whose body carries the marker: a write by ann.
    const saved = await join('kept_places', bearer(users.tokens.ann!), { note: MARKER })
    expect(saved.status).toBe(200)
    await saved.text()
    // A read-only user's save: 403, recorded with her name.
    const readOnly = await join('ritas', bearer(users.tokens.rita!), { note: MARKER })
    expect(readOnly.status).toBe(403)
    // A wrong bearer token holding the marker, and a licence-key path whose key is the marker.
    const refused = await join('other', bearer(`ga_ann_${MARKER}`), { note: MARKER })
    expect(refused.status).toBe(401)
    const keyed = await fetch(
      `${service.urls.advancedmaps_url}/${MARKER}/distance_matrix_predictive/driving/1,1;2,2`,
    )
    expect(keyed.status).toBe(401)
    // A read and a join that saves nothing: not recorded by default.
    const list = await fetch(`${service.urls.mgis_v2_url}/getLayersList`, {
      headers: bearer(users.tokens.bob!),
    })
    expect(list.status).toBe(200)
    const query = saveQuery('x')
    query.delete('saveAsNewDataset')
    query.delete('newDatasetNme')
    const plain = await fetch(`${service.urls.mgis_url}/query_apply/join?${query}`, {
      method: 'POST',
      headers: bearer(users.tokens.bob!),
    })
    expect(plain.status).toBe(200)
    await plain.text()
    await until(() => existsSync(file) && entries(file).length >= 4)
    await new Promise((r) => setTimeout(r, 200))

    const text = readFileSync(file, 'utf8')
    expect(text).not.toContain(MARKER)
    for (const token of Object.values(users.tokens)) expect(text).not.toContain(token)
    const lines = entries(file)
    expect(lines).toHaveLength(4)
    expect(lines[0]).toMatchObject({
      user: 'ann',
      operation: 'POST /mgis/query_apply/join',
      target: 'kept_places',
      outcome: 'ok',
      status: 200,
      address: '127.0.0.1',
    })
    expect(lines[0]!.ms).toBeGreaterThanOrEqual(0)
    expect(Date.parse(lines[0]!.time)).not.toBeNaN()
    expect(lines[1]).toMatchObject({ user: 'rita', target: 'ritas', outcome: 'refused', status: 403 })
    expect(lines[2]).toMatchObject({
      user: null,
      operation: 'POST /mgis/query_apply/join',
      target: 'other',
      outcome: 'refused',
      status: 401,
    })
    expect(lines[3]).toMatchObject({ outcome: 'refused', status: 401, user: null })
    expect(lines[3]!.operation).toMatch(/^GET \/advancedmaps\/:key\//)
    expect(lines.some((l) => l.user === 'bob')).toBe(false)
  })

  it('records reads too with all, and keeps every line whole across rotations under concurrent requests', async () => {
    const dir = await tempDir('geo-audit-')
    const file = path.join(dir, 'audit.log')
    const run = await runService(datasets, { auditLog: { file, all: true, maxBytes: 2048, keep: 100 } })
    running.push(run)
    const n = 120
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        fetch(`${run.service.urls.mgis_v2_url}/getLayersList?name=probe${i}`, {
          headers: { authorization: `Bearer ${TOKEN}` },
        }).then((r) => r.text().then(() => r.status)),
      ),
    )
    expect(answers.every((s) => s === 200)).toBe(true)
    await until(() => entries(file).filter((e) => e.operation.includes('getLayersList')).length >= n)
    const listed = entries(file).filter((e) => e.operation === 'GET /mgis/v2/getLayersList')
    // Every request's line is there once, whole (JSON.parse of every line succeeded above).
    expect(new Set(listed.map((e) => e.target)).size).toBe(n)
    const rotated = readdirSync(dir).filter((name) => /^audit\.log\.\d+$/.test(name))
    expect(rotated.length).toBeGreaterThan(3)
    for (const name of [...rotated, 'audit.log'])
      expect(statSync(path.join(dir, name)).size).toBeLessThanOrEqual(2048)
  })
})

describe('audit log and a failing disk', () => {
  it('a service does not start with an audit log it cannot write, and says which', async () => {
    const dir = await tempDir('geo-audit-')
    writeFileSync(path.join(dir, 'not-a-folder'), 'x')
    await expect(
      runService(datasets, { auditLog: { file: path.join(dir, 'not-a-folder', 'audit.log') } }),
    ).rejects.toThrow(/the audit log .*not-a-folder\/audit\.log cannot be written/)
  })

  it('requests are answered when the log can no longer be written', async () => {
    const dir = await tempDir('geo-audit-')
    const logs = path.join(dir, 'logs')
    const run = await runService(datasets, {
      auditLog: { file: path.join(logs, 'audit.log'), all: true, maxBytes: 256 },
    })
    running.push(run)
    const list = () =>
      fetch(`${run.service.urls.mgis_v2_url}/getLayersList`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      }).then(async (r) => (await r.text(), r.status))
    expect(await list()).toBe(200)
    await until(
      () => existsSync(path.join(logs, 'audit.log')) && entries(path.join(logs, 'audit.log')).length === 1,
    )
    // The folder is gone and a file has its name: the next rotation (every line is past 256 bytes) fails.
    rmSync(logs, { recursive: true, force: true })
    writeFileSync(logs, 'x')
    const statuses = await Promise.all(Array.from({ length: 10 }, list))
    expect(statuses).toEqual(Array(10).fill(200))
    expect(await list()).toBe(200)
  })
})

describe('audit log files', () => {
  const entry = (i: number): AuditEntry => ({
    time: new Date().toISOString(),
    user: 'ann',
    operation: 'POST /local/datasets/import',
    target: `dataset_${i}`,
    outcome: 'ok',
    status: 201,
    ms: 3,
    address: '127.0.0.1',
  })

  it('keeps N rotated files: the oldest go, the newest stay, each line whole', async () => {
    const dir = await tempDir('geo-audit-')
    const file = path.join(dir, 'audit.log')
    const log = new AuditLog({ file, maxBytes: 1024, keep: 3 })
    for (let i = 0; i < 200; i++) log.record(entry(i))
    await log.close()
    expect(readdirSync(dir).sort()).toEqual(['audit.log', 'audit.log.1', 'audit.log.2', 'audit.log.3'])
    const kept = entries(file).map((e) => Number(e.target!.slice('dataset_'.length)))
    // The last lines written are all kept, in order across the files (.3 oldest … current newest).
    const ordered = ['audit.log.3', 'audit.log.2', 'audit.log.1', 'audit.log'].flatMap((n) =>
      readFileSync(path.join(dir, n), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => Number((JSON.parse(l) as AuditEntry).target!.slice('dataset_'.length))),
    )
    expect(ordered.at(-1)).toBe(199)
    expect(ordered).toEqual(Array.from({ length: ordered.length }, (_, i) => 200 - ordered.length + i))
    expect(kept.length).toBe(ordered.length)
    expect(kept.length).toBeLessThan(200)
  })

  it('never throws into a request when the disk fails, and says so once', async () => {
    const dir = await tempDir('geo-audit-')
    const blocker = path.join(dir, 'not-a-folder')
    writeFileSync(blocker, 'x')
    const reports: string[] = []
    const log = new AuditLog({ file: path.join(blocker, 'audit.log') }, (m) => reports.push(m))
    for (let i = 0; i < 5; i++) log.record(entry(i))
    await log.flush()
    expect(reports).toHaveLength(1)
    expect(reports[0]).toMatch(/audit log: cannot write .*not-a-folder\/audit\.log/)
    expect(log.dropped).toBe(5)
    await log.close()
  })

  it("records the request's user and the route pattern the router noted", async () => {
    const dir = await tempDir('geo-audit-')
    const file = path.join(dir, 'audit.log')
    const log = new AuditLog({ file })
    const server = createServer((req, res) => {
      log.watch(req, res)
      noteRoute(req, { pattern: 'DELETE /local/road-networks/:id', params: { id: 'town' } })
      runAs({ user: 'ann', groups: ['routing'], readOnly: false }, req, () => {
        res.writeHead(204).end()
      })
    })
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as AddressInfo).port
    const answer = await fetch(`http://127.0.0.1:${port}/local/road-networks/town`, { method: 'DELETE' })
    expect(answer.status).toBe(204)
    await until(() => existsSync(file) && entries(file).length === 1)
    await log.close()
    expect(entries(file)[0]).toMatchObject({
      user: 'ann',
      operation: 'DELETE /local/road-networks/:id',
      target: 'town',
      outcome: 'ok',
      status: 204,
    })
  })
})
