import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { GeoFailure } from '../../../electron/base/geo-failure'
import { ImportGrants, grantDecision, type OfferedFileFacts } from '../../../electron/main/import-grants'
import { useTempDirs } from '../../support/temp-dir'

const tempDir = useTempDirs()
const HOME = '/home/analyst'

const facts = (realPath: string, extra: Partial<OfferedFileFacts> = {}): OfferedFileFacts => ({
  realPath,
  isFile: true,
  size: 100,
  ...extra,
})

describe('which offered files may be imported (pure decision)', () => {
  it('grants a regular data file of an importable type', () => {
    expect(grantDecision(facts('/home/analyst/data/wells.geojson'), HOME)).toEqual({ allow: true })
    expect(grantDecision(facts('/media/usb/roads.zip'), HOME)).toEqual({ allow: true })
  })

  it.each([
    ['/etc/passwd', /only \.geojson/],
    ['/home/analyst/.ssh/id_rsa', /only \.geojson/],
    ['/home/analyst/.ssh/keys.json', /private folder/],
    ['/home/analyst/.gnupg/export.csv', /private folder/],
    ['/home/analyst/.aws/credentials.json', /private folder/],
    ['/home/analyst/.local/share/keyrings/login.json', /private folder/],
    ['/etc/geo/settings.json', /system folder/],
    ['/proc/self/environ.json', /system folder/],
    ['/sys/kernel/x.csv', /system folder/],
    ['/dev/stdin.csv', /system folder/],
  ])('refuses %s', (realPath, reason) => {
    const decision = grantDecision(facts(realPath), HOME)
    expect(decision).toMatchObject({ allow: false, reason: expect.stringMatching(reason) })
  })

  it('refuses what is not a regular file, an empty file and one over the import limit', () => {
    expect(grantDecision(facts('/data/a.geojson', { isFile: false }), HOME)).toMatchObject({ allow: false })
    expect(grantDecision(facts('/data/a.geojson', { size: 0 }), HOME)).toMatchObject({
      reason: expect.stringMatching(/empty/),
    })
    expect(grantDecision(facts('/data/a.geojson', { size: 257 * 1024 * 1024 }), HOME)).toMatchObject({
      reason: expect.stringMatching(/256 MiB import limit/),
    })
  })
})

describe('import grants over real files', () => {
  function setup(options: { ttlMs?: number; now?: () => number } = {}) {
    const dir = tempDir()
    const home = path.join(dir, 'home')
    mkdirSync(path.join(home, '.ssh'), { recursive: true })
    writeFileSync(path.join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY')
    writeFileSync(path.join(home, '.ssh', 'id_rsa.json'), '{}')
    const wells = path.join(dir, 'wells.geojson')
    writeFileSync(wells, '{"type":"FeatureCollection","features":[]}')
    return { dir, home, wells, grants: new ImportGrants({ home, ...options }) }
  }

  it('answers a reference for a granted file and gives its real path once', async () => {
    const { grants, wells } = setup()
    const offered = await grants.offer(wells)
    expect(offered).toMatchObject({ ok: true, value: { fileName: 'wells.geojson', size: 42 } })
    if (!offered.ok) throw new Error('not granted')
    const taken = await grants.take(offered.value.file)
    expect(taken).toMatchObject({ path: wells, fileName: 'wells.geojson', size: 42 })
    await taken.release()
    await expect(grants.take(offered.value.file)).rejects.toBeInstanceOf(GeoFailure)
  })

  it('refuses what a compromised page could name: secrets, system files, links to them, folders', async () => {
    const { grants, dir, home } = setup()
    const link = path.join(dir, 'innocent.geojson')
    symlinkSync(path.join(home, '.ssh', 'id_rsa'), link)
    mkdirSync(path.join(dir, 'folder.geojson'))
    for (const offered of [
      '/etc/passwd',
      path.join(home, '.ssh', 'id_rsa'),
      path.join(home, '.ssh', 'id_rsa.json'),
      link,
      path.join(dir, 'folder.geojson'),
      path.join(dir, 'missing.geojson'),
      'wells.geojson',
      '',
      42,
      { path: '/etc/passwd' },
    ]) {
      const result = await grants.offer(offered)
      expect(result, String(offered)).toMatchObject({ ok: false, error: { failureClass: 'validation' } })
      expect(JSON.stringify(result)).not.toContain('PRIVATE KEY')
    }
    expect(grants.pending).toBe(0)
  })

  it('refuses a file that was swapped for something else after it was granted', async () => {
    const { grants, dir, home } = setup()
    const file = path.join(dir, 'swap.geojson')
    writeFileSync(file, '{}')
    const offered = await grants.offer(file)
    if (!offered.ok) throw new Error('not granted')
    const { rmSync } = await import('node:fs')
    rmSync(file)
    symlinkSync(path.join(home, '.ssh', 'id_rsa.json'), file)
    await expect(grants.take(offered.value.file)).rejects.toThrow(/changed since it was chosen/)
  })

  it('refuses a file that grew past the limit after it was granted', async () => {
    const { grants, dir } = setup()
    const file = path.join(dir, 'grows.csv')
    writeFileSync(file, 'lon,lat\n1,2\n')
    const offered = await grants.offer(file)
    if (!offered.ok) throw new Error('not granted')
    truncateSync(file, 300 * 1024 * 1024)
    await expect(grants.take(offered.value.file)).rejects.toThrow(/import limit/)
  })

  it('forgets a grant nobody used in time', async () => {
    let now = 1_000
    const { grants, wells } = setup({ ttlMs: 60_000, now: () => now })
    const offered = await grants.offer(wells)
    if (!offered.ok) throw new Error('not granted')
    now += 60_001
    await expect(grants.take(offered.value.file)).rejects.toThrow(/choose the file again/)
  })
})
