import { render } from '@testing-library/vue'
import Feature from 'ol/Feature'
import OlMap from 'ol/Map'
import type VectorLayer from 'ol/layer/Vector'
import Polygon from 'ol/geom/Polygon'
import type { Style } from 'ol/style'
import { afterEach, describe, expect, it } from 'vitest'
import { nextTick } from 'vue'
import {
  BASEMAP_THEMES,
  basemapStyleFor,
  type BasemapTheme,
} from '../../../../../src/features/map/view/basemap-style'
import { mapKey } from '../../../../../src/features/map/view/map-context'
import OfflineBasemapLayer from '../../../../../src/features/map/view/OfflineBasemapLayer.vue'
import { rgbOf } from '../../../../../src/kit/palette'
import { useTheme } from '../../../../../src/kit/theme'

/** Relative luminance (0 black … 1 white) of `#rrggbb` or `rgba(r, g, b, a)`. */
function luminance(colour: string): number {
  const rgb = colour.startsWith('#') ? rgbOf(colour) : (colour.match(/\d+(\.\d+)?/g) ?? []).map(Number)
  const [r, g, b] = rgb.slice(0, 3).map((c) => {
    const v = c / 255
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}

const kerala = new Feature({
  geometry: new Polygon([
    [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 0],
    ],
  ]),
  kind: 'state',
  name: 'Kerala',
  labelLon: 76.3,
  labelLat: 10.4,
  minLabelZoom: 4,
})
/** Metres per pixel at zoom 6, where state names show. */
const ZOOM_6 = 156543.03392804097 / 2 ** 6

function drawn(theme: BasemapTheme): { fill: string; label: string; labelFill: string; halo: string } {
  const styles = basemapStyleFor(theme)(kerala, ZOOM_6) as Style[]
  const [state, label] = styles as [Style, Style]
  const text = label.getText()!
  return {
    fill: state.getFill()!.getColor() as string,
    label: text.getText() as string,
    labelFill: text.getFill()!.getColor() as string,
    halo: text.getStroke()!.getColor() as string,
  }
}

afterEach(() => useTheme().choose('system'))

describe('the offline basemap in each theme', () => {
  it('draws dark land and sea in the dark theme, light ones in the light theme, with the same labels', () => {
    const light = drawn('light')
    const dark = drawn('dark')
    expect(luminance(dark.fill)).toBeLessThan(0.05)
    expect(luminance(BASEMAP_THEMES.dark.sea)).toBeLessThan(0.05)
    expect(luminance(light.fill)).toBeGreaterThan(0.5)
    expect(luminance(BASEMAP_THEMES.light.sea)).toBeGreaterThan(0.5)
    // The same names at the same zoom, readable on their fill in both themes.
    expect(dark.label).toBe('Kerala')
    expect(light.label).toBe('Kerala')
    expect(contrast(dark.labelFill, dark.fill)).toBeGreaterThan(4.5)
    expect(contrast(light.labelFill, light.fill)).toBeGreaterThan(4.5)
    expect(luminance(dark.halo)).toBeLessThan(luminance(dark.labelFill))
    // Land and sea stay apart in the dark too.
    expect(contrast(BASEMAP_THEMES.dark.state, BASEMAP_THEMES.dark.sea)).toBeGreaterThan(1.15)
  })

  it('follows the theme in force: the layer switches style and background when the theme changes', async () => {
    const map = new OlMap({})
    useTheme().choose('light')
    render(OfflineBasemapLayer, { global: { provide: { [mapKey as symbol]: map } } })
    const layer = map
      .getLayers()
      .getArray()
      .find((l) => l.get('id') === 'basemap-offline') as VectorLayer
    expect(layer.getBackground()).toBe(BASEMAP_THEMES.light.sea)
    expect(layer.getStyle()).toBe(basemapStyleFor('light'))
    useTheme().choose('dark')
    await nextTick()
    expect(layer.getBackground()).toBe(BASEMAP_THEMES.dark.sea)
    expect(layer.getStyle()).toBe(basemapStyleFor('dark'))
  })
})
