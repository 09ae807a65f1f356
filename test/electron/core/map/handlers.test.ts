import { promises as fs } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_FORMAT, PROJECT_VERSION, type Project } from '../../../../electron/contract'
import { createCore } from '../../../../electron/core/app-core'
import type { SaveDialogPort } from '../../../../electron/core/export/save-dialog-port'
import { MemorySecretStore } from '../../../../electron/core/secrets/memory-secret-store'
import { useTempDirs } from '../../../support/temp-dir'

const tempDir = useTempDirs()

async function core(ports: Record<string, unknown> = {}) {
  const dataDir = tempDir()
  const created = await createCore({
    configDir: tempDir(),
    dataDir,
    host: ports.saveDialog ? 'electron' : 'web',
    version: '0',
    secretStore: new MemorySecretStore(),
    ports,
  })
  return { core: created, dataDir }
}

function project(overrides: Partial<Project> = {}): Project {
  return {
    format: PROJECT_FORMAT,
    version: PROJECT_VERSION,
    title: 'Cities by population',
    savedAt: '2025-01-01T00:00:00.000Z',
    view: { center: [78.9, 21.1], zoom: 5, rotation: 0 },
    layers: [
      {
        id: 'gis.dataset:india_cities',
        title: 'Cities',
        kind: 'dataset',
        area: 'gis',
        ref: 'india_cities',
        visible: true,
        opacity: 0.5,
        style: {
          symbol: {
            kind: 'single',
            fill: '#1d4ed8',
            stroke: '#ffffff',
            strokeWidth: 1,
            pointSize: 4,
            fillOpacity: 0.3,
          },
          labels: null,
        },
      },
      {
        id: 'map.basemap',
        title: 'Basemap',
        kind: 'basemap',
        area: 'map',
        visible: true,
        opacity: 1,
        style: null,
      },
    ],
    areas: {
      gis: {
        drawings: {
          type: 'FeatureCollection',
          features: [
            {
              type: 'Feature',
              id: 'shape-1',
              properties: { name: 'Point 1', shape: 'point' },
              geometry: { type: 'Point', coordinates: [77.2, 28.6] },
            },
          ],
        },
      },
    },
    ...overrides,
  }
}

describe('projects', () => {
  it('saves a project by name, lists it, opens it again and remembers it as the last one', async () => {
    const { core: c, dataDir } = await core()
    expect(await c.call('project.list', {})).toEqual({ ok: true, value: { projects: [], last: null } })
    expect(await c.call('project.last', {})).toEqual({ ok: true, value: { name: null } })
    const saved = await c.call('project.save', { name: 'Delhi study', project: project() })
    expect(saved).toMatchObject({ ok: true, value: { name: 'Delhi study' } })
    const file = path.join(dataDir, 'projects', 'Delhi study.geoproject.json')
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toMatchObject({ format: PROJECT_FORMAT, version: 1 })
    const listed = await c.call('project.list', {})
    expect(listed).toMatchObject({
      ok: true,
      value: { projects: [{ name: 'Delhi study' }], last: 'Delhi study' },
    })
    const opened = await c.call('project.open', { name: 'Delhi study' })
    expect(opened).toEqual({ ok: true, value: { name: 'Delhi study', project: project() } })
    expect(await c.call('project.last', {})).toEqual({
      ok: true,
      value: { name: 'Delhi study', project: project() },
    })
  })

  it('refuses a project saved by a newer version with what to do, and leaves the file and the others alone', async () => {
    const { core: c, dataDir } = await core()
    await c.call('project.save', { name: 'Good', project: project() })
    const newer = JSON.stringify({ ...project(), version: PROJECT_VERSION + 1, layers: 'changed shape' })
    const newerFile = path.join(dataDir, 'projects', 'Future.geoproject.json')
    await fs.writeFile(newerFile, newer)
    const result = await c.call('project.open', { name: 'Future' })
    expect(result).toMatchObject({ ok: false, error: { failureClass: 'validation', field: 'project' } })
    if (result.ok) return
    expect(result.error.message).toMatch(/saved by a newer version of Geo Analyst/)
    expect(result.error.message).toMatch(/Update the app to open it/)
    expect(await fs.readFile(newerFile, 'utf8')).toBe(newer)
    // The refused file did not become the last project; the good one still opens.
    expect((await c.call('project.list', {})).ok && (await c.call('project.last', {}))).toMatchObject({
      ok: true,
      value: { name: 'Good' },
    })
  })

  it('refuses a damaged project, naming the place in the file behind Details', async () => {
    const { core: c, dataDir } = await core()
    const broken = project()
    const text = JSON.stringify({ ...broken, layers: [{ ...broken.layers[0], opacity: 3 }] })
    await fs.mkdir(path.join(dataDir, 'projects'), { recursive: true })
    await fs.writeFile(path.join(dataDir, 'projects', 'Broken.geoproject.json'), text)
    const result = await c.call('project.open', { name: 'Broken' })
    expect(result).toMatchObject({ ok: false, error: { failureClass: 'validation' } })
    if (result.ok) return
    expect(result.error.message).toMatch(/damaged or incomplete\. Nothing was changed/)
    expect(result.error.detail).toMatch(/layers\[0\]\.opacity/)
    await fs.writeFile(path.join(dataDir, 'projects', 'NotJson.geoproject.json'), '{ "format": ')
    const notJson = await c.call('project.open', { name: 'NotJson' })
    expect(notJson.ok === false && notJson.error.message).toMatch(/not a project file/)
  })

  it('says at start that the last project could not be read, without failing', async () => {
    const { core: c, dataDir } = await core()
    await c.call('project.save', { name: 'Last', project: project() })
    await fs.writeFile(path.join(dataDir, 'projects', 'Last.geoproject.json'), '{}')
    const result = await c.call('project.last', {})
    expect(result).toMatchObject({ ok: true, value: { name: null } })
    expect(result.ok && (result.value as { notice?: string }).notice).toMatch(/not a Geo Analyst project/)
  })

  it('refuses names that cannot be file names and projects that break the schema', async () => {
    const { core: c } = await core()
    for (const name of ['../escape', 'a/b', '', '.hidden', 'x'.repeat(81)]) {
      const result = await c.call('project.save', { name, project: project() })
      expect(result, name).toMatchObject({ ok: false, error: { failureClass: 'validation' } })
    }
    const bad = await c.call('project.save', {
      name: 'Bad',
      project: { ...project(), layers: [project().layers[0]!, project().layers[0]!] },
    })
    expect(bad.ok === false && bad.error.message).toMatch(/listed twice/)
  })
})

describe('export.save', () => {
  it('in the browser host says the browser downloads exports', async () => {
    const { core: c } = await core()
    const result = await c.call('export.save', {
      suggestedName: 'results.geojson',
      format: 'geojson',
      content: '{"type":"FeatureCollection","features":[]}',
    })
    expect(result).toEqual({
      ok: false,
      error: expect.objectContaining({
        failureClass: 'local-configuration',
        message: 'The browser downloads exports; this host has no save dialog',
      }),
    })
  })

  it('hands the save dialog bytes for PNG and PDF and text for the rest', async () => {
    const seen: Array<{ suggestedName: string; format: string; content: string | Uint8Array }> = []
    const saveDialog: SaveDialogPort = {
      async save(request) {
        seen.push(request)
        return `/home/me/${request.suggestedName}`
      },
    }
    const { core: c } = await core({ saveDialog })
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    expect(
      await c.call('export.save', {
        suggestedName: 'map.png',
        format: 'png',
        content: png.toString('base64'),
        encoding: 'base64',
      }),
    ).toEqual({ ok: true, value: { path: '/home/me/map.png' } })
    expect(Buffer.from(seen[0]!.content as Uint8Array)).toEqual(png)
    await c.call('export.save', { suggestedName: 'p.geoproject.json', format: 'project', content: '{}' })
    expect(seen[1]!.content).toBe('{}')
    // A PNG sent as text is refused by the contract before the dialog opens.
    const refused = await c.call('export.save', { suggestedName: 'map.png', format: 'png', content: 'x' })
    expect(refused).toMatchObject({ ok: false, error: { failureClass: 'validation', field: 'encoding' } })
    expect(seen).toHaveLength(2)
  })
})
