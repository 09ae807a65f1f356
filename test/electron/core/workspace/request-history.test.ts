import { promises as fs } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Redactor } from '../../../../electron/core/http/redactor'
import {
  RequestHistory,
  historyFile,
  type HistoryEntry,
} from '../../../../electron/core/workspace/request-history'
import { tempDir } from '../../cli/cli-harness'

let dir: string
beforeEach(async () => {
  dir = await tempDir('ga-history-')
})
afterEach(() => fs.rm(dir, { recursive: true, force: true }))

const entry = (n: number): HistoryEntry => ({
  time: new Date(1_700_000_000_000 + n).toISOString(),
  operation: 'gis.layers',
  method: 'GET',
  url: `http://127.0.0.1/mgis/v2/getLayersList?n=${n}`,
  status: 200,
  attempts: 1,
  durationMs: n,
})

describe('RequestHistory', () => {
  it('appends JSON lines under <dataDir>/history/requests.jsonl and lists newest first', async () => {
    const h = new RequestHistory(dir, new Redactor())
    await Promise.all([1, 2, 3].map((n) => h.record(entry(n))))
    expect(h.file).toBe(historyFile(dir))
    expect((await fs.readFile(h.file, 'utf8')).trim().split('\n')).toHaveLength(3)
    expect((await h.list(2)).map((e) => e.durationMs)).toEqual([3, 2])
  })

  it('rotates to stay bounded, keeps one rotated file, and skips a torn line', async () => {
    const h = new RequestHistory(dir, new Redactor(), 2_000)
    for (let n = 0; n < 60; n++) await h.record(entry(n))
    const files = await fs.readdir(`${dir}/history`)
    expect(files.sort()).toEqual(['requests.1.jsonl', 'requests.jsonl'])
    for (const f of files) expect((await fs.stat(`${dir}/history/${f}`)).size).toBeLessThanOrEqual(2_000)
    await fs.appendFile(h.file, '{"time":"torn')
    const listed = await h.list(1000)
    expect(listed[0]!.durationMs).toBe(59)
    expect(listed.length).toBeGreaterThan(5)
  })

  it('redacts what it is given', async () => {
    const r = new Redactor()
    r.remember('secret-value-123')
    const h = new RequestHistory(dir, r)
    await h.record({
      ...entry(1),
      url: 'http://x/?token=secret-value-123',
      message: 'Authorization: Bearer secret-value-123',
    })
    const text = await fs.readFile(h.file, 'utf8')
    expect(text).not.toContain('secret-value-123')
  })
})
