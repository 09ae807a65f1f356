import { describe, expect, it } from 'vitest'
import {
  layerStyleSchema,
  PROJECT_FORMAT,
  PROJECT_VERSION,
  projectNameSchema,
  readProject,
} from '../../../../electron/contract'

const minimal = {
  format: PROJECT_FORMAT,
  version: PROJECT_VERSION,
  title: '',
  savedAt: '2025-01-01T00:00:00Z',
  view: { center: [78, 21], zoom: 4, rotation: 0 },
  layers: [],
  areas: {},
}

describe('readProject', () => {
  it('reads a minimal project and keeps the part of an area it does not know', () => {
    const reading = readProject(JSON.stringify({ ...minimal, areas: { fleet: { anything: 1 } } }))
    expect(reading).toMatchObject({ ok: true, project: { areas: { fleet: { anything: 1 } } } })
  })

  it('reads a file saved with a byte order mark (Windows Notepad) as the project it is', () => {
    const reading = readProject('\uFEFF' + JSON.stringify({ ...minimal, title: 'Pune wards' }))
    expect(reading).toMatchObject({ ok: true, project: { title: 'Pune wards' } })
  })

  it('tells a newer file from a broken one, before looking at the rest', () => {
    const newer = readProject({ ...minimal, version: 2, layers: 'a later shape' }, 'city.geoproject.json')
    expect(newer).toMatchObject({ ok: false, problem: 'newer' })
    expect(!newer.ok && newer.message).toMatch(
      /^city\.geoproject\.json was saved by a newer version of Geo Analyst \(project format 2; this version reads up to 1\)\. Update the app/,
    )
    expect(readProject({ ...minimal, version: 0 })).toMatchObject({ ok: false, problem: 'broken' })
    expect(readProject({ type: 'FeatureCollection' })).toMatchObject({ ok: false, problem: 'not-a-project' })
    expect(readProject('{')).toMatchObject({ ok: false, problem: 'not-json' })
  })

  it('opens a file saved while the telematics area was `fleet` with the same layers, named as the area is now', () => {
    const layer = (id: string, area: string, extra: object = {}) => ({
      id,
      title: id,
      kind: 'devices',
      area,
      visible: true,
      opacity: 1,
      style: null,
      ...extra,
    })
    const reading = readProject(
      JSON.stringify({
        ...minimal,
        layers: [
          layer('fleet.devices', 'fleet', { visible: false, opacity: 0.4 }),
          layer('fleet.geofences', 'fleet', { kind: 'geofences', ref: 'zones' }),
          // Another area's layer whose name merely holds the word is its own.
          layer('gis.dataset:fleet.depots', 'gis', { kind: 'dataset', ref: 'fleet.depots' }),
          // Listed under both names (an old and a new save merged by hand): the first is the one kept.
          layer('telematics.devices', 'telematics', { opacity: 0.9 }),
          layer('map.basemap', 'map', { kind: 'basemap' }),
        ],
      }),
    )
    expect(reading.ok).toBe(true)
    if (!reading.ok) return
    expect(reading.project.layers.map((l) => [l.id, l.area, l.visible, l.opacity, l.ref])).toEqual([
      ['telematics.devices', 'telematics', false, 0.4, undefined],
      ['telematics.geofences', 'telematics', true, 1, 'zones'],
      ['gis.dataset:fleet.depots', 'gis', true, 1, 'fleet.depots'],
      ['map.basemap', 'map', true, 1, undefined],
    ])
  })

  it('checks an area part with its area schema and names the place', () => {
    const reading = readProject({ ...minimal, areas: { gis: { drawings: { type: 'Nope', features: [] } } } })
    expect(reading).toMatchObject({ ok: false, problem: 'broken' })
    expect(!reading.ok && reading.detail).toMatch(/^areas\.gis\.drawings\.type/)
  })
})

describe('layer styles', () => {
  const base = { stroke: '#ffffff', strokeWidth: 1, pointSize: 4, fillOpacity: 0.4 }

  it('accepts the four symbol kinds and labels', () => {
    for (const symbol of [
      { kind: 'single', fill: '#123abc', ...base },
      {
        kind: 'categorized',
        field: 'state',
        palette: 'Tableau10',
        categories: [{ value: 'Kerala', colour: '#4e79a7' }],
        other: '#999999',
        ...base,
      },
      {
        kind: 'graduated',
        field: 'population',
        method: 'quantile',
        classes: 2,
        palette: 'Viridis',
        reversed: false,
        breaks: [0, 10, 20],
        colours: ['#440154', '#fde725'],
        other: '#999999',
        ...base,
      },
      { kind: 'heatmap', radius: 8, blur: 12, weightField: null, palette: 'YlOrRd' },
    ]) {
      const checked = layerStyleSchema.safeParse({
        symbol,
        labels: { field: 'name', size: 12, colour: '#111111', halo: '#ffffff' },
      })
      expect(checked.success, JSON.stringify(checked.error?.issues)).toBe(true)
    }
  })

  it('refuses a graduated style whose breaks and colours disagree, and a colour that is not #rrggbb', () => {
    const graduated = {
      kind: 'graduated',
      field: 'p',
      method: 'equal-interval',
      classes: 3,
      palette: 'Blues',
      reversed: false,
      breaks: [0, 1, 2],
      colours: ['#000000', '#111111', '#222222'],
      other: '#999999',
      ...base,
    }
    expect(layerStyleSchema.safeParse({ symbol: graduated, labels: null }).success).toBe(false)
    const red = layerStyleSchema.safeParse({ symbol: { kind: 'single', fill: 'red', ...base }, labels: null })
    expect(red.error?.issues[0]?.message).toMatch(/#rrggbb/)
  })

  it('project names are file names without a path', () => {
    expect(projectNameSchema.safeParse('Delhi study 2025').success).toBe(true)
    for (const bad of ['../x', 'a/b', 'a\\b', '.x', 'x.', ' x'])
      expect(projectNameSchema.safeParse(bad).success, bad).toBe(false)
  })
})
