import { z } from 'zod'

/**
 * A layer's symbology as it is kept (layers store, project files): plain data, no colour library and no
 * OpenLayers object. The renderer draws it (`src/features/map/layers/ol-style.ts`) and describes it in the
 * legend (`src/features/map/layers/symbology.ts`); the palettes' colours come from d3-scale-chromatic there.
 */

export const hexColourSchema = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'a colour is written #rrggbb, e.g. #1d4ed8')

/** Qualitative palettes (categorized styles), named as d3-scale-chromatic names its schemes. */
export const QUALITATIVE_PALETTES = [
  'Tableau10',
  'Set2',
  'Dark2',
  'Set1',
  'Paired',
  'Category10',
  'Accent',
  'Set3',
] as const
/** Sequential palettes (graduated styles: low to high). */
export const SEQUENTIAL_PALETTES = [
  'Viridis',
  'Cividis',
  'Magma',
  'Inferno',
  'Plasma',
  'Blues',
  'Greens',
  'Oranges',
  'Reds',
  'Purples',
  'YlOrRd',
  'YlGnBu',
  'OrRd',
  'PuBuGn',
] as const
/** Diverging palettes (graduated styles around a midpoint). */
export const DIVERGING_PALETTES = ['RdBu', 'RdYlBu', 'RdYlGn', 'PuOr', 'BrBG', 'PiYG', 'Spectral'] as const
export const RAMP_PALETTES = [...SEQUENTIAL_PALETTES, ...DIVERGING_PALETTES] as const

export const CLASSIFICATION_METHODS = ['quantile', 'equal-interval', 'natural-breaks'] as const
export const MIN_CLASSES = 2
export const MAX_CLASSES = 9
/** Categories listed by name before the rest fall into "other". */
export const MAX_CATEGORIES = 24

const strokeParts = {
  /** Outline of polygons and points; the line colour of lines in single styles. */
  stroke: hexColourSchema,
  strokeWidth: z.number().min(0).max(20),
  /** Point radius in CSS pixels. */
  pointSize: z.number().min(0.5).max(40),
  /** Opacity of polygon fills (the layer's own opacity applies on top). */
  fillOpacity: z.number().min(0).max(1),
}

export const singleSymbolSchema = z
  .object({ kind: z.literal('single'), fill: hexColourSchema, ...strokeParts })
  .strict()

export const categorizedSymbolSchema = z
  .object({
    kind: z.literal('categorized'),
    field: z.string().min(1).max(200),
    palette: z.enum(QUALITATIVE_PALETTES),
    categories: z
      .array(z.object({ value: z.string().max(500), colour: hexColourSchema }).strict())
      .max(MAX_CATEGORIES),
    /** The colour of every value not listed (and of missing values). */
    other: hexColourSchema,
    ...strokeParts,
  })
  .strict()

export const graduatedSymbolSchema = z
  .object({
    kind: z.literal('graduated'),
    field: z.string().min(1).max(200),
    method: z.enum(CLASSIFICATION_METHODS),
    classes: z.number().int().min(MIN_CLASSES).max(MAX_CLASSES),
    palette: z.enum(RAMP_PALETTES),
    reversed: z.boolean(),
    /** Class limits, low to high: `classes + 1` numbers (the first is the minimum, the last the maximum). */
    breaks: z
      .array(z.number())
      .min(2)
      .max(MAX_CLASSES + 1),
    /** One colour per class, low to high. */
    colours: z.array(hexColourSchema).min(1).max(MAX_CLASSES),
    /** Colour of features without a number in the field. */
    other: hexColourSchema,
    ...strokeParts,
  })
  .strict()
  .refine((s) => s.breaks.length === s.colours.length + 1, {
    message: 'a graduated style has one more break than colours',
    path: ['breaks'],
  })

export const heatmapSymbolSchema = z
  .object({
    kind: z.literal('heatmap'),
    /** Radius and blur in CSS pixels. */
    radius: z.number().min(1).max(100),
    blur: z.number().min(0).max(100),
    /** A numeric field weighting each point (0..1 after scaling to the field's range), or null. */
    weightField: z.string().min(1).max(200).nullable(),
    palette: z.enum(SEQUENTIAL_PALETTES),
  })
  .strict()

export const symbolSchema = z.union([
  singleSymbolSchema,
  categorizedSymbolSchema,
  graduatedSymbolSchema,
  heatmapSymbolSchema,
])

export const labelsSchema = z
  .object({
    field: z.string().min(1).max(200),
    size: z.number().min(6).max(48),
    colour: hexColourSchema,
    halo: hexColourSchema,
  })
  .strict()

export const layerStyleSchema = z
  .object({
    symbol: symbolSchema,
    /** Labels by a field, decluttered (overlapping labels are left out), or null. */
    labels: labelsSchema.nullable(),
  })
  .strict()

export type SingleSymbol = z.infer<typeof singleSymbolSchema>
export type CategorizedSymbol = z.infer<typeof categorizedSymbolSchema>
export type GraduatedSymbol = z.infer<typeof graduatedSymbolSchema>
export type HeatmapSymbol = z.infer<typeof heatmapSymbolSchema>
export type LayerSymbol = z.infer<typeof symbolSchema>
export type LayerLabels = z.infer<typeof labelsSchema>
export type LayerStyle = z.infer<typeof layerStyleSchema>
export type QualitativePalette = (typeof QUALITATIVE_PALETTES)[number]
export type RampPalette = (typeof RAMP_PALETTES)[number]
export type SequentialPalette = (typeof SEQUENTIAL_PALETTES)[number]
export type ClassificationMethod = (typeof CLASSIFICATION_METHODS)[number]
