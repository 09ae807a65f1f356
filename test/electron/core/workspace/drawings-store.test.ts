import { promises as fs, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createCore } from '../../../../electron/core/app-core'
import { MemorySecretStore } from '../../../../electron/core/secrets/memory-secret-store'
import { useTempDirs } from '../../../support/temp-dir'

const tempDir = useTempDirs()

const polygon = (x: number) => ({
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      id: `shape-${x}`,
      properties: { kind: 'polygon' },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [x, 10],
            [x + 1, 10],
            [x + 1, 11],
            [x, 10],
          ],
        ],
      },
    },
  ],
})

async function setup() {
  const dataDir = tempDir()
  const core = await createCore({
    configDir: tempDir(),
    dataDir,
    host: 'web',
    version: '0',
    secretStore: new MemorySecretStore(),
  })
  const dir = path.join(dataDir, 'drawings')
  return {
    core,
    dir,
    file: path.join(dir, 'drawings.geojson'),
    prev: path.join(dir, 'drawings.prev.geojson'),
  }
}

describe('drawings.load / drawings.save', () => {
  it('starts empty, round-trips a collection, and keeps the version it replaces', async () => {
    const { core, file, prev } = await setup()
    expect(await core.call('drawings.load', {})).toEqual({
      ok: true,
      value: { collection: { type: 'FeatureCollection', features: [] } },
    })
    const first = await core.call('drawings.save', { collection: polygon(70) })
    expect(first).toMatchObject({ ok: true, value: { savedAt: expect.any(String) } })
    await core.call('drawings.save', { collection: polygon(80) })
    const loaded = await core.call('drawings.load', {})
    expect(loaded).toMatchObject({
      ok: true,
      value: { collection: polygon(80), savedAt: expect.any(String) },
    })
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(polygon(80))
    expect(JSON.parse(readFileSync(prev, 'utf8'))).toEqual(polygon(70))
    // An empty collection is a valid save (the user deleted every shape).
    const empty = { type: 'FeatureCollection', features: [] }
    expect((await core.call('drawings.save', { collection: empty })).ok).toBe(true)
    expect(await core.call('drawings.load', {})).toMatchObject({ ok: true, value: { collection: empty } })
  })

  it('refuses an invalid shape, naming it, and leaves the saved file as it was', async () => {
    const { core, file } = await setup()
    await core.call('drawings.save', { collection: polygon(70) })
    const before = readFileSync(file, 'utf8')
    const bad = polygon(75)
    ;(bad.features[0]!.geometry.coordinates[0] as number[][])[1] = [200, 10]
    const result = await core.call('drawings.save', { collection: bad })
    expect(result).toMatchObject({
      ok: false,
      error: {
        failureClass: 'validation',
        field: expect.stringMatching(/^collection\.features\.0\.geometry/),
      },
    })
    expect(readFileSync(file, 'utf8')).toBe(before)
  })

  it('moves a damaged file aside, reports it, and restores the previous version', async () => {
    const { core, dir, file } = await setup()
    await core.call('drawings.save', { collection: polygon(70) })
    await core.call('drawings.save', { collection: polygon(80) })
    await fs.writeFile(file, '{"type":"FeatureCollection","features":[{"type":"Feat') // torn by a crash
    const result = await core.call('drawings.load', {})
    expect(result).toMatchObject({ ok: true, value: { collection: polygon(70) } })
    const notice = (result as { value: { notice?: string } }).value.notice ?? ''
    expect(notice).toMatch(/could not be read \(not valid JSON/)
    expect(notice).toMatch(/previous version was restored/)
    const aside = (await fs.readdir(dir)).filter((f) => f.startsWith('drawings.corrupt-'))
    expect(aside).toHaveLength(1)
    expect(notice).toContain(aside[0])
    expect(readFileSync(path.join(dir, aside[0]!), 'utf8')).toContain('"type":"Feat')
  })

  it('reports a damaged file with no sound previous version and returns an empty collection', async () => {
    const { core, dir, file } = await setup()
    await fs.mkdir(dir, { recursive: true })
    await fs.writeFile(file, JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature' }] }))
    const result = await core.call('drawings.load', {})
    expect(result).toMatchObject({
      ok: true,
      value: {
        collection: { type: 'FeatureCollection', features: [] },
        notice: expect.stringMatching(/nothing was restored/),
      },
    })
    expect((await fs.readdir(dir)).some((f) => f.startsWith('drawings.corrupt-'))).toBe(true)
  })

  it('never shows a reader a torn file while saves follow each other, and leaves no temp files', async () => {
    const { core, dir, file } = await setup()
    await core.call('drawings.save', { collection: polygon(60) })
    const saves = Array.from({ length: 30 }, (_, i) =>
      core.call('drawings.save', { collection: polygon(60 + i) }),
    )
    const seen: unknown[] = []
    for (let i = 0; i < 30; i++) {
      seen.push(JSON.parse(await fs.readFile(file, 'utf8')))
      await new Promise((resolve) => setImmediate(resolve))
    }
    expect((await Promise.all(saves)).every((r) => r.ok)).toBe(true)
    for (const value of seen) expect(value).toMatchObject({ type: 'FeatureCollection' })
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(polygon(89))
    expect((await fs.readdir(dir)).sort()).toEqual(['drawings.geojson', 'drawings.prev.geojson'])
  })
})
