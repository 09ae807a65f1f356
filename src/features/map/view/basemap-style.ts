import type { FeatureLike } from 'ol/Feature'
import Point from 'ol/geom/Point'
import { fromLonLat } from 'ol/proj'
import { Fill, Stroke, Style, Text } from 'ol/style'
import { MAP_PALETTE } from '../../../kit/palette'

/** Colours of the offline basemap; the sea differs clearly from land so a glance (or a pixel test) tells them apart. */
export const BASEMAP_COLOURS = {
  sea: MAP_PALETTE.sea,
  state: MAP_PALETTE.state,
  stateBorder: MAP_PALETTE.stateBorder,
  country: MAP_PALETTE.country,
  countryBorder: MAP_PALETTE.countryBorder,
  label: MAP_PALETTE.placeLabel,
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
        stroke: new Stroke({ color: MAP_PALETTE.softHalo, width: 3 }),
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
