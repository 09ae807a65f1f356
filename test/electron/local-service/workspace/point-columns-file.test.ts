import { existsSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { DatasetFeature } from '../../../../electron/local-service/workspace/features'
import {
  decodePointColumns,
  encodePointColumns,
} from '../../../../electron/local-service/workspace/point-columns-file'
import { PointColumns } from '../../../../electron/local-service/workspace/point-columns'
import { TextColumn } from '../../../../electron/local-service/workspace/text-column'
import { Workspace } from '../../../../electron/local-service/workspace/workspace'
import { useTempDirs } from '../../../support/temp-dir'
import { square } from '../helpers'
import { textPoints } from './text-points'

const tempDir = useTempDirs()

/** A dataset's read as a caller sees it: its features, and each text column's bytes and flags. */
function seen(workspace: Workspace, name: string) {
  const read = workspace.readSync(name)
  const texts = (read.points?.values ?? [])
    .filter((c): c is TextColumn => c instanceof TextColumn)
    .map((c) => ({ bytes: [...c.bytes], offsets: [...c.offsets], plain: c.plain, ascii: c.ascii }))
  return { from: read.readFrom, features: read.features, texts }
}

describe('a point dataset’s columns file', () => {
  it('is written with the dataset and read back as the same points the data file gives', async () => {
    const workspace = new Workspace(tempDir())
    const { features, fields } = textPoints(3_000)
    // Numbers of every kind beside the texts: fractions, negatives, large, missing.
    features.forEach((f, i) => (f.properties.value = i % 11 === 0 ? null : i % 2 ? -i / 7 : i * 1e12))
    await workspace.create('pts', features, {
      source: 'test',
      fields: [...fields, { name: 'value', type: 'number' }],
    })
    const columns = path.join(workspace.dir, 'datasets', 'pts', 'columns.bin')
    expect(existsSync(columns)).toBe(true)

    const fromColumns = seen(workspace, 'pts')
    expect(fromColumns.from).toBe('columns')
    rmSync(columns)
    const fromData = seen(workspace, 'pts')
    expect(fromData.from).toBe('data')
    expect(fromColumns.features).toEqual(fromData.features)
    expect(fromColumns.texts).toEqual(fromData.texts)
    expect(fromColumns.texts.map((t) => [t.plain, t.ascii])).toEqual([
      [true, true],
      [false, false],
    ])
  })

  it('is not written for points with a field of another kind, nor for other geometries', async () => {
    const workspace = new Workspace(tempDir())
    const flagged: DatasetFeature[] = [0, 1, 2].map((i) => ({
      geometry: { type: 'Point', coordinates: [i, i] },
      properties: { id: i, ok: i % 2 === 0 },
    }))
    await workspace.create('flagged', flagged, { source: 'test' })
    await workspace.create('squares', [{ geometry: square(0, 0, 1, 1), properties: { id: 1 } }], {
      source: 'test',
    })
    for (const name of ['flagged', 'squares']) {
      expect(existsSync(path.join(workspace.dir, 'datasets', name, 'columns.bin')), name).toBe(false)
      expect(workspace.readSync(name).readFrom).toBe('data')
    }
    expect(workspace.readSync('flagged').features).toEqual(flagged)
  })

  it('is passed over once the data file changes, and when it is damaged: the data file answers', async () => {
    const workspace = new Workspace(tempDir())
    const { features } = textPoints(500)
    await workspace.create('pts', features, { source: 'test' })
    const dir = path.join(workspace.dir, 'datasets', 'pts')
    const expected = workspace.readSync('pts').features
    const data = path.join(dir, 'data.fgb')
    const columns = path.join(dir, 'columns.bin')
    const good = readFileSync(columns)

    // The data file touched (restored from a copy, say): same bytes, another time.
    const { atime, mtime } = statSync(data)
    utimesSync(data, atime, new Date(mtime.getTime() + 1000))
    expect(workspace.readSync('pts').readFrom).toBe('data')
    expect(workspace.readSync('pts').features).toEqual(expected)

    // The columns file cut short, or its magic bytes changed.
    for (const damaged of [
      good.subarray(0, good.length - 5),
      Buffer.concat([Buffer.from('X'), good.subarray(1)]),
    ]) {
      writeFileSync(columns, damaged)
      const read = workspace.readSync('pts')
      expect(read.readFrom).toBe('data')
      expect(read.features).toEqual(expected)
    }
  })

  it('refuses bytes that do not check: another count or fields, offsets going back or past the texts', () => {
    const stamp = { size: 1234, mtimeMs: 5678 }
    const bytes = new TextEncoder().encode('abcdef')
    const make = (offsets: number[]) =>
      encodePointColumns(
        new PointColumns(
          new Float64Array([1, 2, 3]),
          new Float64Array([4, 5, 6]),
          [{ name: 'name', type: 'string' }],
          [new TextColumn(bytes, new Uint32Array(offsets), undefined, true, true)],
        ),
        stamp,
      )!
    const expected = { featureCount: 3, fields: [{ name: 'name', type: 'string' as const }], data: stamp }
    const good = make([0, 2, 4, 6])
    expect(decodePointColumns(good, expected)?.property(1, 'name')).toBe('cd')
    expect(decodePointColumns(make([0, 4, 2, 6]), expected)).toBeUndefined()
    expect(decodePointColumns(make([0, 2, 4, 9]), expected)).toBeUndefined()
    expect(decodePointColumns(good, { ...expected, featureCount: 4 })).toBeUndefined()
    expect(
      decodePointColumns(good, { ...expected, fields: [{ name: 'other', type: 'string' }] }),
    ).toBeUndefined()
    expect(decodePointColumns(good, { ...expected, data: { ...stamp, size: 1235 } })).toBeUndefined()
  })
})
