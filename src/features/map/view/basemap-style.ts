import type { FeatureLike } from 'ol/Feature'
import Point from 'ol/geom/Point'
import { fromLonLat } from 'ol/proj'
import type { StyleFunction } from 'ol/style/Style'
import { Fill, Stroke, Style, Text } from 'ol/style'
import { MAP_PALETTE } from '../../../kit/palette'

export type BasemapTheme = 'light' | 'dark'

export interface BasemapColours {
  sea: string
  state: string
  stateBorder: string
  country: string
  countryBorder: string
  label: string
  halo: string
}

/**
 * Colours of the offline basemap, per theme. The sea differs clearly from land so a glance (or a pixel
 * test) tells them apart; the dark theme keeps every part and label, dark fills under light labels.
 */
export const BASEMAP_THEMES: Readonly<Record<BasemapTheme, BasemapColours>> = {
  light: {
    sea: MAP_PALETTE.sea,
    state: MAP_PALETTE.state,
    stateBorder: MAP_PALETTE.stateBorder,
    country: MAP_PALETTE.country,
    countryBorder: MAP_PALETTE.countryBorder,
    label: MAP_PALETTE.placeLabel,
    halo: MAP_PALETTE.softHalo,
  },
  dark: {
    sea: MAP_PALETTE.darkSea,
    state: MAP_PALETTE.darkState,
    stateBorder: MAP_PALETTE.darkStateBorder,
    country: MAP_PALETTE.darkCountry,
    countryBorder: MAP_PALETTE.darkCountryBorder,
    label: MAP_PALETTE.darkPlaceLabel,
    halo: MAP_PALETTE.darkHalo,
  },
}

/** The class of the XYZ tile layer's element: the dark theme filters it (`--ga-map-tiles-filter`). */
export const XYZ_TILES_CLASS = 'ga-basemap-tiles'

/** The light theme's colours (the map's default). */
export const BASEMAP_COLOURS = BASEMAP_THEMES.light

/** Web-Mercator zoom level of a resolution in metres per pixel. */
function zoomOf(resolution: number): number {
  return Math.log2(156543.03392804097 / resolution)
}

function makeStyle(colours: BasemapColours): StyleFunction {
  const stateStyle = new Style({
    fill: new Fill({ color: colours.state }),
    stroke: new Stroke({ color: colours.stateBorder, width: 1 }),
    zIndex: 2,
  })
  const countryStyle = new Style({
    fill: new Fill({ color: colours.country }),
    stroke: new Stroke({ color: colours.countryBorder, width: 0.8 }),
    zIndex: 1,
  })
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
          fill: new Fill({ color: colours.label }),
          stroke: new Stroke({ color: colours.halo, width: 3 }),
          overflow: false,
        }),
        zIndex: 3,
      })
      labelCache.set(name, style)
    }
    return style
  }

  /** States filled lightly with borders; their names once the zoom reaches Natural Earth's label zoom. */
  return (feature, resolution) => {
    if (feature.get('kind') !== 'state') return countryStyle
    const minLabelZoom = Number(feature.get('minLabelZoom') ?? 6)
    if (zoomOf(resolution) + 0.25 < Math.min(minLabelZoom, 7)) return stateStyle
    const label = labelStyle(feature)
    return label ? [stateStyle, label] : stateStyle
  }
}

const STYLES: Record<BasemapTheme, StyleFunction> = {
  light: makeStyle(BASEMAP_THEMES.light),
  dark: makeStyle(BASEMAP_THEMES.dark),
}

/** The offline basemap's style in a theme (one style object per theme, reused). */
export function basemapStyleFor(theme: BasemapTheme): StyleFunction {
  return STYLES[theme]
}

/** The light theme's style. */
export const basemapStyle: StyleFunction = STYLES.light
