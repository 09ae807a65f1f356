import type { FeatureLike } from 'ol/Feature'
import Point from 'ol/geom/Point'
import { fromLonLat } from 'ol/proj'
import { Fill, Stroke, Style, Text } from 'ol/style'

/** Colours of the offline basemap; SEA differs clearly from LAND so a glance (or a pixel test) tells them apart. */
export const BASEMAP_COLOURS = {
  sea: '#b5d6ea',
  state: '#f3e6bf',
  stateBorder: '#8a7650',
  country: '#e2e0da',
  countryBorder: '#a29d92',
  label: '#3d3322',
} as const

const stateStyle = new Style({
  fill: new Fill({ color: BASEMAP_COLOURS.state }),
  stroke: new Stroke({ color: BASEMAP_COLOURS.stateBorder, width: 1 }),
  zIndex: 2,
})

const countryStyle = new Style({
  fill: new Fill({ color: BASEMAP_COLOURS.country }),
  stroke: new Stroke({ color: BASEMAP_COLOURS.countryBorder, width: 0.8 }),
  zIndex: 1,
})

/** Web-Mercator zoom level of a resolution in metres per pixel. */
function zoomOf(resolution: number): number {
  return Math.log2(156543.03392804097 / resolution)
}

const labelCache = new Map<string, Style>()

function labelStyle(feature: FeatureLike): Style | null {
  const name = feature.get('name') as unknown
  const lon = feature.get('labelLon') as unknown
  const lat = feature.get('labelLat') as unknown
  if (typeof name !== 'string' || typeof lon !== 'number' || typeof lat !== 'number') return null
  let style = labelCache.get(name)
  if (!style) {
    style = new Style({
      geometry: new Point(fromLonLat([lon, lat])),
      text: new Text({
        text: name,
        font: '12px system-ui, sans-serif',
        fill: new Fill({ color: BASEMAP_COLOURS.label }),
        stroke: new Stroke({ color: 'rgba(255,255,255,0.85)', width: 3 }),
        overflow: false,
      }),
      zIndex: 3,
    })
    labelCache.set(name, style)
  }
  return style
}

/** States filled lightly with borders; their names once the zoom reaches Natural Earth's label zoom. */
export function basemapStyle(feature: FeatureLike, resolution: number): Style | Style[] {
  if (feature.get('kind') !== 'state') return countryStyle
  const minLabelZoom = Number(feature.get('minLabelZoom') ?? 6)
  if (zoomOf(resolution) + 0.25 < Math.min(minLabelZoom, 7)) return stateStyle
  const label = labelStyle(feature)
  return label ? [stateStyle, label] : stateStyle
}
