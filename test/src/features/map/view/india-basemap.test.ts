import type { Feature, MultiPolygon, Polygon, Position } from 'geojson'
import { describe, expect, it } from 'vitest'
import raw from '../../../../../resources/basemap/india-admin1.json?raw'
import { INDIA_BOX, indiaBasemap } from '../../../../../src/features/map/view/india'

type Area = Feature<Polygon | MultiPolygon, Record<string, unknown>>

const features = indiaBasemap.features as Area[]
const states = features.filter((f) => f.properties['kind'] === 'state')
const countries = features.filter((f) => f.properties['kind'] === 'country')

function polygonsOf(feature: Area): Position[][][] {
  return feature.geometry.type === 'Polygon' ? [feature.geometry.coordinates] : feature.geometry.coordinates
}

describe('offline basemap resources/basemap/india-admin1.json', () => {
  it('is a small GeoJSON FeatureCollection', () => {
    expect(indiaBasemap.type).toBe('FeatureCollection')
    expect(raw.length).toBeLessThan(400 * 1024)
  })

  it('holds India’s states and union territories, each once, with names and ISO codes', () => {
    expect(states.length).toBeGreaterThanOrEqual(36)
    expect(states.length).toBeLessThanOrEqual(40)
    const names = states.map((s) => s.properties['name'])
    for (const name of ['Maharashtra', 'Kerala', 'Delhi', 'Ladakh', 'Telangana', 'Andaman and Nicobar']) {
      expect(names).toContain(name)
    }
    const codes = states.map((s) => s.properties['iso'])
    expect(new Set(codes).size).toBe(codes.length)
    for (const code of codes) expect(code).toMatch(/^IN-[A-Z]+$/)
  })

  it('uses only valid polygons in WGS84 longitude/latitude', () => {
    let polygons = 0
    for (const feature of features) {
      expect(['Polygon', 'MultiPolygon']).toContain(feature.geometry.type)
      for (const polygon of polygonsOf(feature)) {
        polygons++
        for (const ring of polygon) {
          expect(ring.length).toBeGreaterThanOrEqual(4)
          expect(ring[0]).toEqual(ring[ring.length - 1])
          for (const [lon, lat] of ring as [number, number][]) {
            expect(Math.abs(lon)).toBeLessThanOrEqual(180)
            expect(Math.abs(lat)).toBeLessThanOrEqual(90)
          }
        }
      }
    }
    // Islands (Andaman and Nicobar, Lakshadweep) make some states multi-part, but simplification keeps it small.
    expect(polygons).toBeGreaterThan(states.length)
    expect(polygons).toBeLessThan(1500)
  })

  it('places India where India is, with labels inside the country’s box', () => {
    const [minLon, minLat, maxLon, maxLat] = INDIA_BOX
    expect(minLon).toBeGreaterThan(67)
    expect(minLon).toBeLessThan(69.5)
    expect(maxLon).toBeGreaterThan(97)
    expect(maxLon).toBeLessThan(98)
    expect(minLat).toBeGreaterThan(6)
    expect(minLat).toBeLessThan(8)
    expect(maxLat).toBeGreaterThan(35)
    expect(maxLat).toBeLessThan(37.5)
    for (const state of states) {
      const lon = state.properties['labelLon'] as number
      const lat = state.properties['labelLat'] as number
      expect(lon).toBeGreaterThanOrEqual(minLon)
      expect(lon).toBeLessThanOrEqual(maxLon)
      expect(lat).toBeGreaterThanOrEqual(minLat)
      expect(lat).toBeLessThanOrEqual(maxLat)
    }
  })

  it('adds neighbouring countries for context', () => {
    const names = countries.map((c) => c.properties['name'])
    for (const name of ['Pakistan', 'China', 'Nepal', 'Bangladesh', 'Sri Lanka'])
      expect(names).toContain(name)
  })
})
