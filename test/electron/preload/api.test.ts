import { describe, expect, it } from 'vitest'
import { OFFER_FILE_CHANNEL } from '../../../electron/contract'
import { buildGeoFiles } from '../../../electron/preload/api'

describe('window.geoFiles in the desktop preload', () => {
  it('offers the path Electron knows for a File from disk, and nothing the page made up', async () => {
    const sent: unknown[][] = []
    const invoke = async (...args: unknown[]) => (sent.push(args), { ok: true, value: {} })
    const onDisk = new File(['{}'], 'wells.geojson')
    const made = new File(['{}'], '/etc/passwd')
    const files = buildGeoFiles((file) => (file === onDisk ? '/home/me/wells.geojson' : ''), invoke)
    await files.offerForImport(onDisk)
    expect(sent).toEqual([[OFFER_FILE_CHANNEL, '/home/me/wells.geojson']])
    for (const forged of [
      made,
      '/etc/passwd' as unknown as File,
      { path: '/etc/passwd' } as unknown as File,
    ]) {
      const refused = await buildGeoFiles((file) => {
        if (!(file instanceof File)) throw new TypeError('not a File')
        return ''
      }, invoke).offerForImport(forged)
      expect(refused).toMatchObject({ ok: false, error: { failureClass: 'validation', field: 'file' } })
    }
    expect(sent).toHaveLength(1)
    expect(Object.isFrozen(files)).toBe(true)
  })
})
