import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { CsvError, parseCsv } from '../../../../shared/csv'
import { ImportError } from '../../../../electron/local-service/import/crs'
import { stageCsvStreamed, type CsvStreamStats } from '../../../../electron/local-service/import/csv-import'
import { forEachCsvRow } from '../../../../electron/local-service/import/csv-stream'
import { readImportFile } from '../../../../electron/local-service/import/import-dataset'
import { importInWorker } from '../../../../electron/local-service/import/import-runner'
import { Workspace } from '../../../../electron/local-service/workspace/workspace'

const dir = mkdtempSync(path.join(os.tmpdir(), 'csv-stream-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let n = 0
const file = (text: string | Uint8Array, ext = 'csv') => {
  const f = path.join(dir, `f${n++}.${ext}`)
  writeFileSync(f, text)
  return f
}

async function streamedRows(f: string, chunkBytes: number): Promise<string[][]> {
  const rows: string[][] = []
  await forEachCsvRow(f, (batch) => void rows.push(...batch), chunkBytes)
  return rows
}

const TEXTS = [
  'a,b\n1,2\n',
  '\uFEFFa,b\r\n1,2\r\n\r\n3,4',
  '\uFEFF\uFEFFa\n"x ""quoted"" y",\n',
  'a,b\n"multi\r\nline, with comma","é ü 漢字 😀"\r3,"4"\n',
  'a,b,c\n"",x"y,"a""\n"b",c\n"""",,\n',
  'a\n\n\n\r\n\rz',
  'lon,lat\n1,2\n"3',
]

describe('CSV rows read a chunk at a time', () => {
  it('are the rows parseCsv reads from the whole text, however the chunks fall', async () => {
    for (const text of TEXTS) {
      const f = file(text)
      const whole = new TextDecoder().decode(readFileSync(f))
      let expected: string[][] | string
      try {
        expected = parseCsv(whole)
      } catch (error) {
        expect(error).toBeInstanceOf(CsvError)
        expected = (error as Error).message
      }
      for (const chunk of [1, 2, 3, 5, 7, 64]) {
        const got = await streamedRows(f, chunk).catch((error: Error) => {
          expect(error).toBeInstanceOf(ImportError)
          return error.message
        })
        expect(got, `${JSON.stringify(text)} in chunks of ${chunk}`).toEqual(expected)
      }
    }
  })
})

/** A dataset's files: the bytes of data.fgb and index.flatbush, the manifest (but its date), the points read back. */
async function filesOf(workspace: Workspace, name: string) {
  const d = path.join(workspace.dir, 'datasets', name)
  const manifest = JSON.parse(await fs.readFile(path.join(d, 'manifest.json'), 'utf8')) as Record<
    string,
    unknown
  >
  delete manifest.created
  const read = workspace.readSync(name)
  const hasColumns = await fs.stat(path.join(d, 'columns.bin')).then(
    () => true,
    () => false,
  )
  return {
    data: await fs.readFile(path.join(d, 'data.fgb')),
    index: await fs.readFile(path.join(d, 'index.flatbush')),
    manifest,
    hasColumns,
    readFrom: read.readFrom,
    features: JSON.parse(JSON.stringify(read.features)) as unknown,
  }
}

/** The old way: the file read whole, checked, then staged from its feature list. */
async function importWhole(workspace: Workspace, f: string, skipInvalid: boolean) {
  const { features, skippedInvalid } = await readImportFile(f, { skipInvalid })
  await workspace.commit(await workspace.stage('whole', features, { source: `${f} (csv)`, skippedInvalid }))
}

async function importStreamed(workspace: Workspace, f: string, skipInvalid: boolean, chunkBytes = 97) {
  const stats: CsvStreamStats = { largestBatch: 0 }
  const staged = await stageCsvStreamed(
    workspace,
    f,
    'streamed',
    { source: `${f} (csv)`, skipInvalid },
    undefined,
    () => {},
    stats,
    chunkBytes,
  )
  await workspace.commit(staged)
  return stats
}

const CASES: Record<string, string> = {
  'points with numbers, texts, nulls and a mixed field': [
    'id,name,lon,lat,pop,code',
    '1,alpha,10.5,20.25,100,007',
    '2,"beta, quoted",-70.1,-33.4,,12',
    '3,,0,0,3.5e2,x',
    '4,"line\nbreak",179.9,89.9,-7,',
  ].join('\n'),
  'geometry-named and prototype-named columns': [
    'x,y,wkb_geometry,__proto__,constructor,wkb_geometry_2',
    '1,2,a,b,c,d',
    '3,4,,,,',
  ].join('\r\n'),
  'a WKT column with polygons, EMPTY and empty cells': [
    'wkt,kind,lon',
    '"POLYGON((0 0,1 0,1 1,0 1,0 0))",square,5',
    'POINT EMPTY,none,',
    ',blank,7',
    '"MULTIPOINT((1 2),(3 4))",pts,x',
  ].join('\n'),
  'only rows without a geometry': 'lon,lat,v\n,,1\n,,two\n',
  'coordinates at and past the edges, spelled oddly, between valid rows': [
    'lat,lon,v',
    '0,0,first',
    '90,180,a',
    '-90,-180,b',
    ' 12 , -0 ,c',
    '1e1,0x10,d',
    '90.0000001,0,e',
    '0,-180.5,f',
    'NaN,1,g',
    '1,Infinity,h',
    '1,,i',
    ',,j',
    '.5,5.,k',
  ].join('\n'),
}

describe('a CSV imported as it streams', () => {
  for (const [label, text] of Object.entries(CASES)) {
    it(`writes the dataset the whole read writes: ${label}`, async () => {
      const f = file(text)
      const a = new Workspace(path.join(dir, `ws${n++}`))
      const skip = label.startsWith('coordinates')
      await importWhole(a, f, skip)
      await importStreamed(a, f, skip)
      const whole = await filesOf(a, 'whole')
      const streamed = await filesOf(a, 'streamed')
      expect({ ...streamed.manifest, name: 'whole' }).toEqual(whole.manifest)
      expect(streamed.data.equals(whole.data)).toBe(true)
      expect(streamed.index.equals(whole.index)).toBe(true)
      expect(streamed.hasColumns).toBe(whole.hasColumns)
      expect(streamed.readFrom).toBe(whole.readFrom)
      expect(streamed.features).toEqual(whole.features)
    })
  }

  const INVALID = [
    'id,lon,lat',
    ...Array.from({ length: 30 }, (_, i) =>
      i % 3 === 0 ? `${i},east,${i}` : i % 7 === 0 ? `${i},200,0` : i === 4 ? `${i},1` : `${i},${i},${-i}`,
    ),
  ].join('\n')

  it('refuses invalid rows with the message the whole read gives, and skips and counts them alike', async () => {
    const f = file(INVALID)
    const ws = new Workspace(path.join(dir, `ws${n++}`))
    const refusal = await readImportFile(f).catch((error: Error) => error)
    expect(refusal).toBeInstanceOf(ImportError)
    const streamedRefusal = await importStreamed(ws, f, false).catch((error: Error) => error)
    expect(streamedRefusal).toBeInstanceOf(ImportError)
    expect((streamedRefusal as ImportError).message).toBe((refusal as ImportError).message)
    expect((streamedRefusal as ImportError).code).toBe('invalid-features')
    expect(await ws.list()).toEqual([])

    await importWhole(ws, f, true)
    await importStreamed(ws, f, true)
    const whole = await filesOf(ws, 'whole')
    const streamed = await filesOf(ws, 'streamed')
    expect(streamed.manifest.skippedInvalid).toBe(whole.manifest.skippedInvalid)
    expect(streamed.manifest.skippedInvalid).toBeGreaterThan(10)
    expect({ ...streamed.manifest, name: 'whole' }).toEqual(whole.manifest)
    expect(streamed.data.equals(whole.data)).toBe(true)
    expect(streamed.index.equals(whole.index)).toBe(true)
    expect(streamed.readFrom).toBe('columns')
    expect(streamed.features).toEqual(whole.features)
  })

  it('refuses what the whole read refuses, with the same words', async () => {
    for (const text of [
      '',
      '\n\n',
      'name,value\nx,1\n',
      'lon,lat\n1,2\n"3,4\n',
      'lon,lat\nx,y\n',
      'wkt\n"POLYGON((0 0,1 0,1 1))"\n',
    ]) {
      const f = file(text)
      const whole = await readImportFile(f, { skipInvalid: true }).then(
        () => 'imported',
        (error: Error) => error.message,
      )
      const ws = new Workspace(path.join(dir, `ws${n++}`))
      const streamed = await importStreamed(ws, f, true, 5).then(
        () => 'imported',
        (error: Error) => error.message,
      )
      expect(streamed, JSON.stringify(text)).toBe(whole)
      expect(streamed).not.toBe('imported')
    }
  })

  it('holds the rows of one chunk at a time, never the file', async () => {
    const rows = ['id,name,lon,lat']
    for (let i = 0; i < 20_000; i++) rows.push(`${i},place ${i},${(i % 360) - 180},${(i % 180) - 90}`)
    const f = file(rows.join('\n'))
    const ws = new Workspace(path.join(dir, `ws${n++}`))
    const stats = await importStreamed(ws, f, false, 4096)
    // Rows are at least 16 bytes long: a 4 KiB chunk completes at most 256 of them.
    expect(stats.largestBatch).toBeGreaterThan(0)
    expect(stats.largestBatch).toBeLessThanOrEqual(256)
    expect((await ws.manifest('streamed')).featureCount).toBe(20_000)
  })

  it('imports 200,000 point rows in a worker whose heap is capped at 96 MiB', async () => {
    const rows = ['id,name,lon,lat,pop']
    for (let i = 0; i < 200_000; i++)
      rows.push(
        `${i},place ${i},${(68 + (i % 2900) / 100).toFixed(4)},${(8 + i / 1e5).toFixed(4)},${i % 977}`,
      )
    const f = file(rows.join('\n'))
    const ws = new Workspace(path.join(dir, `ws${n++}`))
    const manifest = await importInWorker(ws, f, { name: 'capped', limits: { maxHeapMb: 96 } })
    expect(manifest.featureCount).toBe(200_000)
    expect(manifest.fields).toEqual([
      { name: 'id', type: 'number' },
      { name: 'name', type: 'string' },
      { name: 'pop', type: 'number' },
    ])
    expect(ws.readSync('capped').readFrom).toBe('columns')
  }, 120_000)
})
