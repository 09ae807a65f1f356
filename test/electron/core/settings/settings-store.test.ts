import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { SettingsStore } from '../../../../electron/core/settings/settings-store'
import { exited, lockChild } from '../../../support/lock-processes'
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

describe('settings store', () => {
  it('starts on the built-in Local profile with the local service URLs when it runs', async () => {
    const local = { ...urls, atlas_url: 'http://127.0.0.1:4000/atlas' }
    const store = new SettingsStore({ configDir: tempDir(), localUrls: () => local })
    const view = await store.view()
    expect(view.activeProfile).toBe('Local')
    expect(view.profiles).toEqual([{ name: 'Local', builtIn: true, urls: local }])
  })

  it('saves, chooses and deletes remote profiles, persisted across instances', async () => {
    const dir = tempDir()
    const store = new SettingsStore({ configDir: dir })
    await store.saveProfile('Cloud', urls)
    await store.chooseProfile('Cloud')
    const again = await new SettingsStore({ configDir: dir }).view()
    expect(again.activeProfile).toBe('Cloud')
    expect(again.profiles.map((p) => p.name)).toEqual(['Local', 'Cloud'])
    const afterDelete = await store.deleteProfile('Cloud')
    expect(afterDelete.activeProfile).toBe('Local')
  })

  it('refuses to change or delete the built-in profile', async () => {
    const store = new SettingsStore({ configDir: tempDir() })
    await expect(store.saveProfile('local', urls)).rejects.toThrow(/built-in/)
    await expect(store.deleteProfile('Local')).rejects.toThrow(/built in/)
  })

  it('writes atomically: no temporary files remain and the file is always whole JSON', async () => {
    const dir = tempDir()
    const store = new SettingsStore({ configDir: dir })
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.saveProfile(`P${i}`, urls)))
    expect(readdirSync(dir).sort()).toEqual(['settings.json'])
    const saved = JSON.parse(readFileSync(path.join(dir, 'settings.json'), 'utf8')) as { profiles: unknown[] }
    expect(saved.profiles).toHaveLength(20)
  })

  it('moves a corrupt file aside, reports it and keeps its bytes', async () => {
    const dir = tempDir()
    writeFileSync(path.join(dir, 'settings.json'), '{"version": 1, "activeProfile": ')
    const store = new SettingsStore({ configDir: dir, now: () => new Date('2026-01-02T03:04:05Z') })
    const view = await store.view()
    expect(view.notice).toMatch(
      /could not be read \(not valid JSON.*moved to .*settings\.json\.corrupt-2026-01-02T03-04-05-000Z/,
    )
    const aside = path.join(dir, 'settings.json.corrupt-2026-01-02T03-04-05-000Z')
    expect(readFileSync(aside, 'utf8')).toBe('{"version": 1, "activeProfile": ')
    expect(existsSync(path.join(dir, 'settings.json'))).toBe(false)
    expect(view.activeProfile).toBe('Local')
  })

  it('treats a well-formed file with invalid content as corrupt too, naming the field', async () => {
    const dir = tempDir()
    writeFileSync(
      path.join(dir, 'settings.json'),
      JSON.stringify({
        version: 1,
        activeProfile: 'Local',
        profiles: [{ name: 'X', urls: { atlas_url: 'nope' } }],
        preferences: {},
      }),
    )
    const view = await new SettingsStore({ configDir: dir }).view()
    expect(view.notice).toMatch(/profiles\.0\.urls/)
  })

  it('says what happened, where the old file went and what to do, and tells listeners once', async () => {
    const dir = tempDir()
    writeFileSync(path.join(dir, 'settings.json'), '{ not json')
    const store = new SettingsStore({ configDir: dir, now: () => new Date('2026-01-02T03:04:05Z') })
    const heard: string[] = []
    store.onRecovered((notice) => heard.push(notice))
    const aside = path.join(dir, 'settings.json.corrupt-2026-01-02T03-04-05-000Z')
    await store.view()
    await store.activeProfile()
    await store.saveProfile('Fresh', urls)
    expect(heard).toHaveLength(1)
    expect(heard[0]).toContain(path.join(dir, 'settings.json'))
    expect(heard[0]).toContain(aside)
    expect(heard[0]).toMatch(/profiles and preferences are not loaded/)
    expect(heard[0]).toMatch(/rename it back to settings\.json/)
    expect((await store.view()).notice).toBe(heard[0])
  })

  it('lets concurrent reads of a corrupt file all succeed: one moves it aside, all report it', async () => {
    const dir = tempDir()
    writeFileSync(path.join(dir, 'settings.json'), '{"version": 1, "activeProfile": ')
    const store = new SettingsStore({ configDir: dir })
    const views = await Promise.all(Array.from({ length: 10 }, () => store.view()))
    expect(views.every((v) => v.activeProfile === 'Local' && v.notice?.includes('moved to'))).toBe(true)
    expect(readdirSync(dir).filter((f) => f.includes('.corrupt-'))).toHaveLength(1)
  })

  it('reads a valid file that starts with a UTF-8 byte order mark (Windows Notepad)', async () => {
    const dir = tempDir()
    const file = {
      version: 1,
      activeProfile: 'Cloud',
      profiles: [{ name: 'Cloud', urls }],
      preferences: { basemap: { kind: 'offline', xyzUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png' } },
    }
    writeFileSync(path.join(dir, 'settings.json'), '\uFEFF' + JSON.stringify(file, null, 2))
    const view = await new SettingsStore({ configDir: dir }).view()
    expect(view.notice).toBeUndefined()
    expect(view.activeProfile).toBe('Cloud')
    expect(readdirSync(dir)).toEqual(['settings.json'])
  })
})

describe('settings changed by several processes at once', () => {
  it('keeps every profile when four processes (the app, CLIs beside it) each save five at the same time', async () => {
    const dir = tempDir()
    const runs = await Promise.all(
      ['app', 'cli-a', 'cli-b', 'cli-c'].map((prefix) => exited(lockChild(['profiles', dir, prefix, '5']))),
    )
    for (const run of runs) expect(run.code, run.stderr).toBe(0)
    const names = (await new SettingsStore({ configDir: dir }).view()).profiles.map((p) => p.name)
    expect(names).toHaveLength(21)
    for (const prefix of ['app', 'cli-a', 'cli-b', 'cli-c'])
      for (let i = 0; i < 5; i++) expect(names).toContain(`${prefix}-${i}`)
    expect(readdirSync(dir).sort()).toEqual(['settings.json'])
  }, 60_000)
})
