import { existsSync, readFileSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { stagedFileName, withStagedUpload } from '../../../electron/base/upload-staging'

describe('upload staging, written once for the core and the local service', () => {
  it('keeps the base name only, with no path, no odd characters and no leading dot', () => {
    expect(stagedFileName('C:\\Users\\asha\\wards 2024.geojson')).toEqual({
      original: 'wards 2024.geojson',
      staged: 'wards_2024.geojson',
    })
    expect(stagedFileName('../../etc/passwd').staged).toBe('passwd')
    expect(stagedFileName('..hidden;rm -rf.csv').staged).toBe('hidden_rm_-rf.csv')
    expect(stagedFileName('dir/').staged).toBe('upload')
  })

  it('stages the bytes readable by their owner only in a folder named for this process, and removes it after', async () => {
    let seen: { file: string; original: string; mode: number; text: string } | undefined
    const result = await withStagedUpload(
      'upload',
      'x/ward.csv',
      new TextEncoder().encode('a,b'),
      async (file, original) => {
        seen = { file, original, mode: statSync(file).mode & 0o777, text: readFileSync(file, 'utf8') }
        return 42
      },
    )
    expect(result).toBe(42)
    expect(seen).toMatchObject({ original: 'ward.csv', mode: 0o600, text: 'a,b' })
    const dir = path.dirname(seen!.file)
    expect(path.dirname(dir)).toBe(os.tmpdir())
    expect(path.basename(dir)).toMatch(new RegExp(`^geo-analyst-upload-${process.pid}-[A-Za-z0-9]{6}$`))
    expect(existsSync(dir)).toBe(false)
  })

  it('removes the folder when the reader fails too', async () => {
    let dir = ''
    await expect(
      withStagedUpload('import', 'bad.kml', new Uint8Array([1]), async (file) => {
        dir = path.dirname(file)
        throw new Error('not KML')
      }),
    ).rejects.toThrow('not KML')
    expect(existsSync(dir)).toBe(false)
  })
})
