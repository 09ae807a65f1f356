import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { SettingsStore } from '../../../../electron/core/settings/settings-store'
import { useTempDirs } from '../../../support/temp-dir'

const tempDir = useTempDirs()
const urls = {
  atlas_url: 'https://atlas.example.com',
  advancedmaps_url: 'https://apis.example.com/advancedmaps/v1',
  mgis_url: 'https://mgis.example.com/api',
  mgis_v2_url: 'https://mgis.example.com/api/v2',
  telematics_url: 'https://intouch.example.com/iot/api',
  aiml_url: 'https://aiml.example.com',
}
const postgis = {
  host: 'db.example.org',
  port: 6432,
  database: 'gis',
  user: 'analyst',
  schemas: ['work', 'public'],
  sslmode: 'require' as const,
}

describe('settings store: PostGIS workspace profiles', () => {
  it('loads a settings file written before profile kinds, unchanged', async () => {
    const dir = tempDir()
    const old = {
      version: 1,
      activeProfile: 'Cloud',
      profiles: [{ name: 'Cloud', urls }],
      preferences: { basemap: { kind: 'offline', xyzUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png' } },
    }
    writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(old))
    const view = await new SettingsStore({ configDir: dir }).view()
    expect(view.notice).toBeUndefined()
    expect(view.activeProfile).toBe('Cloud')
    expect(view.profiles).toEqual([
      { name: 'Local', builtIn: true, urls: null },
      { name: 'Cloud', builtIn: false, urls },
    ])
    expect(readdirSync(dir)).toEqual(['settings.json'])
  })

  it('saves a PostGIS workspace profile beside remote ones, listed with its kind and the local URLs', async () => {
    const dir = tempDir()
    const local = { ...urls, atlas_url: 'http://127.0.0.1:4000/atlas' }
    const store = new SettingsStore({ configDir: dir, localUrls: () => local })
    await store.saveProfile('Cloud', urls)
    await store.savePostgisProfile('Office db', postgis)
    const again = await new SettingsStore({ configDir: dir, localUrls: () => local }).view()
    expect(again.profiles).toEqual([
      { name: 'Local', builtIn: true, urls: local },
      { name: 'Cloud', builtIn: false, urls },
      { name: 'Office db', builtIn: true, urls: local, kind: 'postgis', postgis },
    ])
    const file = JSON.parse(readFileSync(path.join(dir, 'settings.json'), 'utf8')) as { profiles: unknown[] }
    expect(file.profiles[1]).toEqual({ name: 'Office db', kind: 'postgis', postgis })
  })

  it('replaces a profile of the other kind under the same name, and refuses the built-in name', async () => {
    const store = new SettingsStore({ configDir: tempDir() })
    await store.saveProfile('Work', urls)
    const view = await store.savePostgisProfile('Work', postgis)
    expect(view.profiles.filter((p) => p.name === 'Work')).toEqual([
      { name: 'Work', builtIn: true, urls: null, kind: 'postgis', postgis },
    ])
    await expect(store.savePostgisProfile('LOCAL', postgis)).rejects.toThrow(/built-in/)
  })

  it('moves aside a file whose PostGIS profile is broken, naming the field', async () => {
    const dir = tempDir()
    const broken = {
      version: 1,
      activeProfile: 'Local',
      profiles: [{ name: 'Db', kind: 'postgis', postgis: { ...postgis, port: 70000 } }],
      preferences: { basemap: { kind: 'offline', xyzUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png' } },
    }
    writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(broken))
    const view = await new SettingsStore({ configDir: dir }).view()
    expect(view.profiles.map((p) => p.name)).toEqual(['Local'])
    expect(view.notice).toMatch(/could not be read \(profiles\.0\.postgis\.port: port must be/)
  })
})
