import { render, screen, waitFor, within } from '@testing-library/vue'
import Feature from 'ol/Feature'
import OlMap from 'ol/Map'
import View from 'ol/View'
import Point from 'ol/geom/Point'
import VectorLayer from 'ol/layer/Vector'
import { fromLonLat } from 'ol/proj'
import VectorSource from 'ol/source/Vector'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { defineComponent, h } from 'vue'
import type { LonLatBox } from '../../../../../src/geo/extent'
import type { LayerDefinition } from '../../../../../src/features/map/layers/layer-model'
import { useLayersStore } from '../../../../../src/features/map/layers/layers-store'
import MapLegend from '../../../../../src/features/map/layers/MapLegend.vue'
import { useMapLayer } from '../../../../../src/features/map/layers/use-map-layer'
import { mapKey } from '../../../../../src/features/map/view/map-context'
import { useMapStore } from '../../../../../src/features/map/view/map-store'
import { createTestApp } from '../../../support/render'

/** What the map shows, as MapView reports it. */
const INDIA: LonLatBox = [68, 6, 98, 36]
const GOTHENBURG: LonLatBox = [11.8, 57.6, 12.1, 57.8]
/** Central Gothenburg, between the two vehicles at the town's edges. */
const TOWN_CENTRE: LonLatBox = [11.95, 57.69, 11.99, 57.71]

const swatch = { shape: 'point' as const, fill: '#123456', size: 6 }
const pointsAt = (points: Array<[number, number]>) =>
  new VectorSource({ features: points.map((p) => new Feature(new Point(fromLonLat(p)))) })

const cities = pointsAt([
  [72.88, 19.07],
  [77.21, 28.61],
])
/** Two vehicles at opposite edges of Gothenburg. */
const fleet = pointsAt([
  [11.86, 57.65],
  [12.09, 57.76],
])
const vehicle = fleet.getFeatures()[0]!.getGeometry() as Point
/** Join results, kept without a spatial index (as the results layer keeps them). */
const results = new VectorSource({
  useSpatialIndex: false,
  features: [new Feature(new Point(fromLonLat([72.88, 19.07])))],
})

function definition(id: string, title: string, label: string, extent: LonLatBox | null): LayerDefinition {
  return {
    id,
    title,
    kind: 'test',
    area: 'test',
    geometry: 'point',
    extent,
    defaultStyle: null,
    legend: [{ label, swatch }],
  }
}

/** Two layers drawn from vector sources, a raster-like layer known only by its extent, and the legend. */
const Scene = defineComponent({
  setup() {
    useMapLayer({
      definition: () => definition('test.cities', 'Cities', 'City', [72.88, 19.07, 77.21, 28.61]),
      layers: [new VectorLayer({ source: cities })],
    })
    useMapLayer({
      definition: () =>
        definition('telematics.devices', 'Fleet (simulated)', 'Moving', [11.86, 57.65, 12.09, 57.76]),
      layers: [new VectorLayer({ source: fleet })],
    })
    useMapLayer({
      definition: () => definition('gis.results', 'Join results', 'Joined row', null),
      layers: [new VectorLayer({ source: results })],
    })
    useMapLayer({
      definition: () => definition('test.scan', 'Scanned sheet', 'Sheet', [11.9, 57.6, 12.0, 57.7]),
      layers: [],
    })
    return () => h(MapLegend)
  },
})

let map: OlMap
/** The scene inside a map, the view reported as `view`. */
function renderScene(view: LonLatBox): void {
  const { pinia } = createTestApp([])
  useMapStore().setViewBox(view)
  map = new OlMap({ view: new View({ center: [0, 0], zoom: 2 }) })
  render(Scene, { global: { plugins: [pinia], provide: { [mapKey as symbol]: map } } })
}
/** Titles of the layers the legend over the map lists (none: no legend at all). */
function legendTitles(): string[] {
  const legend = screen.queryByRole('region', { name: 'Legend' })
  if (!legend) return []
  return within(legend)
    .getAllByRole('list')
    .map((list) => list.getAttribute('aria-label')!.replace('Legend entries of ', ''))
}

describe('the legend over the map', () => {
  beforeEach(() => localStorage.clear())
  afterEach(() => map.dispose())

  it('lists only the layers with features in the view', async () => {
    renderScene(INDIA)
    await waitFor(() => expect(legendTitles()).toEqual(['Join results', 'Cities']))
    useMapStore().setViewBox(GOTHENBURG)
    await waitFor(() => expect(legendTitles()).toEqual(['Scanned sheet', 'Fleet (simulated)']))
  })

  it('lists the fleet only while a vehicle is in view, not merely its box', async () => {
    renderScene(TOWN_CENTRE)
    // The view lies inside the fleet's box, but no vehicle is in it.
    await waitFor(() => expect(legendTitles()).toEqual(['Scanned sheet']))
    // A vehicle drives into the view: the legend follows the layer's features.
    vehicle.setCoordinates(fromLonLat([11.97, 57.7]))
    await waitFor(() => expect(legendTitles()).toEqual(['Scanned sheet', 'Fleet (simulated)']))
    vehicle.setCoordinates(fromLonLat([11.86, 57.65]))
    await waitFor(() => expect(legendTitles()).toEqual(['Scanned sheet']))
  })

  it('leaves out hidden layers, and is gone when nothing in view has a legend', async () => {
    renderScene(GOTHENBURG)
    await waitFor(() => expect(legendTitles()).toEqual(['Scanned sheet', 'Fleet (simulated)']))
    useLayersStore().setVisible('telematics.devices', false)
    await waitFor(() => expect(legendTitles()).toEqual(['Scanned sheet']))
    useMapStore().setViewBox([-10, 40, 0, 50])
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Legend' })).toBeNull())
  })
})
