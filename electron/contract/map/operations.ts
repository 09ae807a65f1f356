import { z } from 'zod'
import { op } from '../operation'
import type { ContractArea } from '../area'
import { MAX_PROJECT_BYTES, projectNameSchema, projectSchema } from './project'

/**
 * The map's own operations, shared by every area: projects (the layer list, styles, drawings and view as
 * a file) and saving what the app exports (datasets' rows, map images, project files).
 */

/** What `export.save` writes: the analyst loop's exports, map images and documents, project files. */
export const EXPORT_FORMATS = ['geojson', 'csv', 'png', 'pdf', 'project'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]
/** Formats whose content crosses as base64 (bytes); the others are UTF-8 text. */
export const BINARY_EXPORT_FORMATS: readonly ExportFormat[] = ['png', 'pdf']
/** Largest export content accepted (the text as it crosses: base64 counts its own length). */
export const MAX_EXPORT_CHARS = 512 * 1024 * 1024

export const exportSaveRequestSchema = z
  .object({
    suggestedName: z.string().min(1).max(255),
    format: z.enum(EXPORT_FORMATS),
    content: z.string().max(MAX_EXPORT_CHARS),
    /** `base64` for bytes (PNG, PDF); text otherwise. */
    encoding: z.enum(['utf8', 'base64']).optional(),
  })
  .strict()
  .refine((r) => (r.encoding === 'base64') === BINARY_EXPORT_FORMATS.includes(r.format), {
    message: 'PNG and PDF content is sent as base64 (encoding "base64"); other formats as text',
    path: ['encoding'],
  })

export type ExportSaveRequest = z.infer<typeof exportSaveRequestSchema>

export const projectEntrySchema = z.object({
  name: z.string(),
  savedAt: z.string(),
  bytes: z.number(),
})

export type ProjectEntry = z.infer<typeof projectEntrySchema>

const empty = z.object({}).strict()

export const mapOperations = {
  'project.list': op(
    empty,
    z.object({ projects: z.array(projectEntrySchema), last: z.string().nullable() }),
    'Projects in the app’s projects folder, newest first, and the last one opened or saved',
  ),
  'project.save': op(
    z.object({ name: projectNameSchema, project: projectSchema }).strict(),
    projectEntrySchema,
    'Save a project (atomically) in the projects folder under its name; it becomes the last project',
  ),
  'project.open': op(
    z.object({ name: projectNameSchema }).strict(),
    z.object({ name: z.string(), project: projectSchema }),
    'Read a saved project; a newer or damaged file is refused with what is wrong',
  ),
  'project.last': op(
    empty,
    z.object({
      name: z.string().nullable(),
      project: projectSchema.optional(),
      /** Set when the last project could not be read: what happened; nothing was opened. */
      notice: z.string().optional(),
    }),
    'The last project opened or saved, to reopen on start',
  ),
  'export.save': op(
    exportSaveRequestSchema,
    z.object({ path: z.string().nullable() }),
    'Save an export through the desktop save dialog (null when the user cancels)',
  ),
} as const

export { MAX_PROJECT_BYTES }

/** The map area's part of the contract, listed in `electron/contract/area-list.ts`. */
export const mapContract = {
  operations: mapOperations,
  interface: {},
  events: {},
} as const satisfies ContractArea
