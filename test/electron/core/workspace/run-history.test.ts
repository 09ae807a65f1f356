import { promises as fs } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { JoinRun } from '../../../../electron/contract'
import { Redactor } from '../../../../electron/core/http/redactor'
import {
  estimateResultBytes,
  RUN_HISTORY_LIMITS,
  RunHistory,
} from '../../../../electron/core/workspace/run-history'
import { useTempDirs } from '../../../support/temp-dir'
import { withRows } from '../../../support/join-rows'

const tempDir = useTempDirs()

const result = (runId: string, rows: number): JoinRun => ({
  runId,
  ...withRows(Array.from({ length: rows }, (_, i) => ({ prop1: `row ${i}` }))),
  partial: false,
  status: 200,
  durationMs: 5,
})

const run = (id: string) => ({
  id,
  time: new Date().toISOString(),
  profile: 'Local',
  params: { queryType: 'basic', datasetSource: 'a' },
  durationMs: 5,
  status: 200,
})

describe('RunHistory', () => {
  it('lists newest first and keeps the rows of only the newest runs within the count bound, in memory', async () => {
    const dataDir = tempDir()
    const history = new RunHistory(dataDir, new Redactor(), { ...RUN_HISTORY_LIMITS, maxResults: 2 })
    for (const id of ['r1', 'r2', 'r3', 'r4'])
      await history.record({ ...run(id), rowCount: 3 }, result(id, 3))
    const list = await history.list()
    expect(list.map((r) => [r.id, r.hasResult, r.rowCount])).toEqual([
      ['r4', true, 3],
      ['r3', true, 3],
      ['r2', false, 3],
      ['r1', false, 3],
    ])
    expect((await history.get('r4'))?.result?.rowCount).toBe(3)
    expect(await history.get('r1')).toEqual({ run: list[3] })
    // Only the index is on disk: parameters and counts, no rows.
    expect(await fs.readdir(path.join(dataDir, 'runs'))).toEqual(['index.json'])
    expect(await fs.readFile(path.join(dataDir, 'runs', 'index.json'), 'utf8')).not.toContain('row 1')
  })

  it('keeps results within the byte bound, newest first, and never one larger than the bound', async () => {
    const small = estimateResultBytes(result('x', 10))
    const history = new RunHistory(tempDir(), new Redactor(), {
      ...RUN_HISTORY_LIMITS,
      maxResultBytes: small * 2 + 10,
    })
    await history.record(run('big'), result('big', 1000))
    await history.record(run('s1'), result('s1', 10))
    await history.record(run('s2'), result('s2', 10))
    await history.record(run('s3'), result('s3', 10))
    const list = await history.list()
    expect(list.map((r) => [r.id, r.hasResult])).toEqual([
      ['s3', true],
      ['s2', true],
      ['s1', false],
      ['big', false],
    ])
  })

  it('counts the memory of a result as the answer its rows are read from', () => {
    const rows = (n: number, text: string) => ({
      ...result('x', 0),
      ...withRows(Array.from({ length: n }, () => ({ prop1: text }))),
    })
    // 1,000 rows of {"prop1":"ab"} are 14 bytes each, plus the brackets and commas.
    expect(estimateResultBytes(rows(1000, 'ab'))).toBeGreaterThan(15_000)
    expect(estimateResultBytes(rows(2000, 'ab'))).toBeGreaterThan(1.9 * estimateResultBytes(rows(1000, 'ab')))
    expect(estimateResultBytes(rows(1000, 'x'.repeat(100)))).toBeGreaterThan(110_000)
    // A view keeps its whole buffer alive: that is what is counted.
    const body = new TextEncoder().encode(`{"code":"200","note":"${'n'.repeat(5000)}","result":[]}`)
    expect(
      estimateResultBytes({ ...result('x', 0), rowsJson: body.subarray(body.length - 3, body.length - 1) }),
    ).toBeGreaterThan(5000)
  })

  it('after a restart lists every run with its counts, and none can be reopened', async () => {
    const dataDir = tempDir()
    await new RunHistory(dataDir, new Redactor()).record(
      { ...run('before'), rowCount: 3 },
      result('before', 3),
    )
    const again = new RunHistory(dataDir, new Redactor())
    expect(await again.list()).toEqual([
      expect.objectContaining({ id: 'before', rowCount: 3, hasResult: false }),
    ])
    expect((await again.get('before'))?.result).toBeUndefined()
  })

  it('removes the result files earlier versions wrote', async () => {
    const dataDir = tempDir()
    await fs.mkdir(path.join(dataDir, 'runs', 'results'), { recursive: true })
    await fs.writeFile(path.join(dataDir, 'runs', 'results', 'old.json'), '{"rows":[]}')
    await new RunHistory(dataDir, new Redactor()).record(run('new'))
    expect(await fs.readdir(path.join(dataDir, 'runs'))).toEqual(['index.json'])
  })

  it('gives a repeated runId its own entry', async () => {
    const history = new RunHistory(tempDir(), new Redactor())
    await history.record(run('same'), result('same', 1))
    const second = await history.record(run('same'), result('same', 2))
    expect(second.id).toBe('same-2')
    expect((await history.get('same-2'))?.result?.rowCount).toBe(2)
    expect((await history.get('same'))?.result?.rowCount).toBe(1)
  })

  it('writes no credential: params and messages are redacted, rows are not written', async () => {
    const dataDir = tempDir()
    const redactor = new Redactor()
    const secret = 'sekret-token-123456'
    redactor.remember(secret)
    const history = new RunHistory(dataDir, redactor)
    await history.record(
      {
        ...run('leaky'),
        params: { datasetSource: secret },
        failureClass: 'authentication',
        message: `bad ${secret}`,
      },
      { ...result('leaky', 1), ...withRows([{ prop1: secret }]) },
    )
    expect(await fs.readdir(path.join(dataDir, 'runs'))).toEqual(['index.json'])
    expect(await fs.readFile(path.join(dataDir, 'runs', 'index.json'), 'utf8')).not.toContain(secret)
  })

  it('moves a damaged index aside and starts again', async () => {
    const dataDir = tempDir()
    await fs.mkdir(path.join(dataDir, 'runs'), { recursive: true })
    await fs.writeFile(path.join(dataDir, 'runs', 'index.json'), '{"version":1,"runs":[{"id"')
    const history = new RunHistory(dataDir, new Redactor())
    expect(await history.list()).toEqual([])
    await history.record(run('fresh'))
    expect((await history.list()).map((r) => r.id)).toEqual(['fresh'])
    expect((await fs.readdir(path.join(dataDir, 'runs'))).some((f) => f.startsWith('index.corrupt-'))).toBe(
      true,
    )
  })
})
