import { promises as fs } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { PROJECT_FORMAT } from '../../../electron/contract'
import { MemorySecretStore } from '../../../electron/core/secrets/memory-secret-store'
import { useTempDirs } from '../../support/temp-dir'
import { cli } from './cli-harness'

const tempDir = useTempDirs()

const project = {
  format: PROJECT_FORMAT,
  version: 1,
  title: 'Wells',
  savedAt: '2025-01-01T00:00:00.000Z',
  view: { center: [77.5, 23.25], zoom: 6, rotation: 0 },
  layers: [
    {
      id: 'gis.dataset:wells',
      title: 'Wells',
      kind: 'dataset',
      area: 'gis',
      ref: 'wells',
      visible: false,
      opacity: 0.5,
      style: null,
    },
  ],
  areas: {},
}

describe('geo-analyst project', () => {
  it('checks a project file and says what it holds; refuses a newer one with exit code 2', async () => {
    const dir = tempDir()
    const env = { GEO_ANALYST_CONFIG_DIR: tempDir(), GEO_ANALYST_DATA_DIR: dir }
    const good = path.join(dir, 'wells.geoproject.json')
    await fs.writeFile(good, JSON.stringify(project))
    const ok = await cli(['project', 'check', good], env, new MemorySecretStore())
    expect(ok.code).toBe(0)
    expect(ok.stdout).toContain('project format 1, "Wells"')
    expect(ok.stdout).toContain('  Wells (gis dataset wells) hidden, opacity 50%')
    const newer = path.join(dir, 'newer.geoproject.json')
    await fs.writeFile(newer, JSON.stringify({ ...project, version: 4 }))
    const refused = await cli(['project', 'check', newer], env, new MemorySecretStore())
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/was saved by a newer version of Geo Analyst \(project format 4/)
  })

  it('lists the projects the app saved', async () => {
    const dir = tempDir()
    const env = { GEO_ANALYST_CONFIG_DIR: tempDir(), GEO_ANALYST_DATA_DIR: dir }
    const empty = await cli(['project', 'list'], env, new MemorySecretStore())
    expect(empty.stdout).toBe('No saved projects.\n')
    await fs.mkdir(path.join(dir, 'projects'))
    await fs.writeFile(path.join(dir, 'projects', 'Wells.geoproject.json'), JSON.stringify(project))
    const listed = await cli(['project', 'list', '--json'], env, new MemorySecretStore())
    expect(JSON.parse(listed.stdout)).toMatchObject({ projects: [{ name: 'Wells' }], last: null })
  })
})
