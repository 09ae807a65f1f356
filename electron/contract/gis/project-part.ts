import { z } from 'zod'
import { featureCollectionSchema } from './loop'

/** What a project file keeps of the spatial-analytics area beside its layers: the drawn shapes. */
export const gisProjectPartSchema = z
  .object({
    /** The drawings (WGS84 GeoJSON), as `drawings.save` keeps them. */
    drawings: featureCollectionSchema,
  })
  .strict()

export type GisProjectPart = z.infer<typeof gisProjectPartSchema>
