import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MyPlacesError, MyPlacesStore } from '../../../../electron/local-service/places/my-places'
import { tempDir } from '../helpers'

let dir: string
beforeEach(async () => {
  dir = await tempDir('geo-places-')
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('My places store', () => {
  it('saves places to places/my-places.json in the workspace and lists them newest first', async () => {
    const store = new MyPlacesStore(dir, 'analyst', () => new Date('2026-02-03T04:05:06Z'))
    const a = await store.add({ placeName: 'Warehouse', latitude: 12.9, longitude: 77.6 })
    const b = await store.add({
      placeName: 'Client',
      latitude: 28.6,
      longitude: 77.2,
      placeAddress: 'Delhi',
      type: 'LOCALITY',
    })
    expect(a.eLoc).toMatch(/^[0-9A-Z]{8}$/)
    expect(a.eLoc).not.toBe(b.eLoc)
    expect(b).toMatchObject({ userName: 'analyst', created: '2026-02-03T04:05:06.000Z', type: 'LOCALITY' })
    expect((await store.list()).map((p) => p.placeName)).toEqual(['Client', 'Warehouse'])
    const file = JSON.parse(await readFile(path.join(dir, 'places', 'my-places.json'), 'utf8'))
    expect(file).toHaveLength(2)
    // A new store over the same folder reads what was saved.
    expect((await new MyPlacesStore(dir).list()).map((p) => p.eLoc)).toEqual([b.eLoc, a.eLoc])
  })

  it('removes a place by eLoc and says so when there is none', async () => {
    const store = new MyPlacesStore(dir)
    const a = await store.add({ placeName: 'Warehouse', latitude: 12.9, longitude: 77.6 })
    await store.remove(a.eLoc.toLowerCase())
    expect(await store.list()).toEqual([])
    await expect(store.remove(a.eLoc)).rejects.toBeInstanceOf(MyPlacesError)
  })

  it('loses no place when saves come at once', async () => {
    const store = new MyPlacesStore(dir)
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.add({ placeName: `P${i}`, latitude: i, longitude: i })),
    )
    expect(await new MyPlacesStore(dir).list()).toHaveLength(20)
    expect((await readdir(path.join(dir, 'places'))).filter((f) => f.endsWith('.tmp'))).toEqual([])
  })

  it('moves an unreadable file aside and reports it, never overwriting it silently', async () => {
    await mkdir(path.join(dir, 'places'), { recursive: true })
    await writeFile(path.join(dir, 'places', 'my-places.json'), '{ not json')
    const store = new MyPlacesStore(dir, 'analyst', () => new Date('2026-02-03T04:05:06Z'))
    expect(await store.list()).toEqual([])
    expect(store.notice).toMatch(/moved aside/)
    const files = await readdir(path.join(dir, 'places'))
    expect(files).toContain('my-places.corrupt-2026-02-03T04-05-06-000Z.json')
    expect(
      await readFile(path.join(dir, 'places', 'my-places.corrupt-2026-02-03T04-05-06-000Z.json'), 'utf8'),
    ).toBe('{ not json')
  })

  it('offers the last list read to the request thread', async () => {
    const store = new MyPlacesStore(dir)
    expect(store.snapshot()).toEqual([])
    await store.add({ placeName: 'Depot', latitude: 1, longitude: 2 })
    expect(store.snapshot().map((p) => p.placeName)).toEqual(['Depot'])
  })
})
