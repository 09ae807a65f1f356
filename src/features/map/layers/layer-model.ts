import type { LayerStyle, LayerSymbol } from '@contract/index'
import type { LonLatBox } from '../../../geo/extent'

/**
 * The layer list's data: what every layer on the map is, serializable (ids, titles, numbers, styles,
 * legend descriptions). OpenLayers objects stay in the layer components; callbacks in `layer-runtime.ts`.
 */

export type GeometryFamily = 'point' | 'line' | 'polygon' | 'mixed' | 'raster'

/** A field a style can use; `numeric` when every value present is a number (or numeric text). */
export interface LayerField {
  name: string
  numeric: boolean
}

export type SymbolKind = LayerSymbol['kind']

/** How a legend entry is drawn: a point, a line, a polygon, a colour ramp, or a picture of the basemap. */
export interface LegendSwatch {
  shape: 'point' | 'line' | 'polygon' | 'ramp' | 'raster'
  fill?: string
  stroke?: string
  /** Point radius or line width, in CSS pixels. */
  size?: number
  /** Ramps: low to high. */
  colours?: string[]
}

export interface LegendItem {
  label: string
  swatch: LegendSwatch
}

/** What an area says about a layer when it registers it (`useMapLayer`). */
export interface LayerDefinition {
  /** Unique over the app: `<area>.<kind>` or `<area>.<kind>:<ref>`, e.g. `gis.dataset:india_cities`. */
  id: string
  /** The name shown until the user renames it. */
  title: string
  /** What kind of thing it is, in the area's words (`dataset`, `results`, `drawings`, `pins`, …). */
  kind: string
  /** The area that draws it. */
  area: string
  /** What the area needs to bring the layer back after a restart or with a project (a dataset's name). */
  ref?: string
  geometry: GeometryFamily
  /** Fields a style can classify or label by; empty when the layer has none. */
  fields?: LayerField[]
  featureCount?: number | null
  /** Where "Zoom to layer" goes (lon/lat); null while empty. */
  extent?: LonLatBox | null
  /**
   * The look it starts with. Null: the area draws the layer its own way (then `legend` describes it), and
   * the panel offers visibility, opacity and order but no symbology.
   */
  defaultStyle: LayerStyle | null
  /** Symbol kinds the symbology editor offers (defaults: all that fit the geometry). */
  symbolKinds?: SymbolKind[]
  /** The legend of a layer drawn its own way (`defaultStyle: null`); ignored when styled. */
  legend?: LegendItem[]
  /** "Remove from map" is offered (the binding's `remove` does it). */
  removable?: boolean
  /** "Open attribute table" is offered. */
  hasTable?: boolean
  /** Kept at the bottom of the list (the basemap). */
  pinned?: 'bottom'
}

/** One layer in the list, as the store holds it: the definition plus what the user chose. */
export interface LayerEntry extends Required<
  Omit<LayerDefinition, 'ref' | 'legend' | 'pinned' | 'defaultStyle'>
> {
  ref?: string
  pinned?: 'bottom'
  visible: boolean
  /** 0..1 */
  opacity: number
  style: LayerStyle | null
  /** The legend as drawn now: from the style, or the area's own. */
  legend: LegendItem[]
}
