import { z } from 'zod'
import { gisProjectPartSchema } from '../gis/project-part'
import { layerStyleSchema } from './style'
import { parseJsonText } from '../common/json-text'
import { withCurrentAreaIds } from './renamed-areas'

/**
 * The project file: the layer list with its styles, the map view and each area's own part (the drawings
 * of the spatial-analytics area), versioned. A file from a newer version, or one that does not pass
 * these schemas, is refused by name and changes nothing.
 */
export const PROJECT_FORMAT = 'geo-analyst-project'
/** The version this build writes and the newest it reads. */
export const PROJECT_VERSION = 1
/** The file name's ending in the projects folder. */
export const PROJECT_EXTENSION = '.geoproject.json'
/** Largest project file read (drawings included). */
export const MAX_PROJECT_BYTES = 64 * 1024 * 1024

/** Names of projects saved in the app's projects folder: also their file names. */
export const projectNameSchema = z
  .string()
  .min(1, 'a project needs a name')
  .max(80, 'a project name has at most 80 characters')
  .regex(
    /^[\p{L}\p{N}](?:[\p{L}\p{N} _.-]*[\p{L}\p{N}_-])?$/u,
    'a project name is letters, digits, spaces, "_", "-" and "." (not first or last)',
  )

export const projectLayerSchema = z
  .object({
    /** The layer's id as its area registers it (e.g. `gis.dataset:india_cities`). */
    id: z.string().min(1).max(300),
    title: z.string().min(1).max(200),
    /** What kind of thing it is, as its area names it (`dataset`, `results`, `drawings`, `basemap`). */
    kind: z.string().min(1).max(60),
    /** The area that draws it (`gis`, `places`, …; `map` for the basemap). */
    area: z.string().min(1).max(60),
    /** What the area needs to bring the layer back, e.g. the dataset's name. */
    ref: z.string().max(500).optional(),
    visible: z.boolean(),
    opacity: z.number().min(0).max(1),
    style: layerStyleSchema.nullable(),
  })
  .strict()

export const projectViewSchema = z
  .object({
    center: z.tuple([z.number().min(-180).max(180), z.number().min(-90).max(90)]),
    zoom: z.number().min(0).max(24),
    rotation: z.number().min(-10).max(10),
  })
  .strict()

/** Each area's own part of a project, checked by its area's schema; one line per area that keeps one. */
export const PROJECT_PARTS = {
  gis: gisProjectPartSchema,
} as const satisfies Record<string, z.ZodType>

export const projectSchema = z
  .object({
    format: z.literal(PROJECT_FORMAT),
    version: z.literal(PROJECT_VERSION),
    title: z.string().max(200),
    savedAt: z.string().max(40),
    app: z.object({ name: z.string().max(100), version: z.string().max(40) }).optional(),
    view: projectViewSchema,
    /** Top of the list first; the basemap is last. */
    layers: z.array(projectLayerSchema).max(500),
    /** Each area's part by area id; a part of an area this build does not know is kept as it is. */
    areas: z.record(z.string(), z.unknown()),
  })
  .strict()
  .superRefine((project, ctx) => {
    const ids = new Set<string>()
    project.layers.forEach((layer, index) => {
      if (ids.has(layer.id))
        ctx.addIssue({
          code: 'custom',
          path: ['layers', index, 'id'],
          message: `the layer ${layer.id} is listed twice`,
        })
      ids.add(layer.id)
    })
    for (const [area, schema] of Object.entries(PROJECT_PARTS)) {
      const part = project.areas[area]
      if (part === undefined) continue
      const checked = schema.safeParse(part)
      if (!checked.success)
        for (const issue of checked.error.issues)
          ctx.addIssue({ code: 'custom', path: ['areas', area, ...issue.path], message: issue.message })
    }
  })

export type Project = z.infer<typeof projectSchema>
export type ProjectLayer = z.infer<typeof projectLayerSchema>
export type ProjectView = z.infer<typeof projectViewSchema>

export type ProjectProblem = 'not-json' | 'not-a-project' | 'newer' | 'broken'
export type ProjectReading =
  { ok: true; project: Project } | { ok: false; problem: ProjectProblem; message: string; detail?: string }

function issuePath(path: readonly PropertyKey[]): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .replace(/^\./, '')
}

/**
 * Read a project from its file's text (or parsed JSON): the format and version are judged first, so a
 * file from a newer version is refused as such, not as broken. Messages say what is wrong and what to do;
 * `detail` names the first problem's place in the file.
 */
export function readProject(input: string | unknown, fileName = 'The project file'): ProjectReading {
  let data: unknown = input
  if (typeof input === 'string') {
    try {
      data = parseJsonText(input)
    } catch (error) {
      return {
        ok: false,
        problem: 'not-json',
        message: `${fileName} could not be opened: it is not a project file (not valid JSON). Nothing was changed.`,
        detail: (error as Error).message,
      }
    }
  }
  const head = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {}
  if (head['format'] !== PROJECT_FORMAT) {
    return {
      ok: false,
      problem: 'not-a-project',
      message: `${fileName} could not be opened: it is not a Geo Analyst project. Nothing was changed.`,
      detail: `"format" is ${JSON.stringify(head['format'] ?? null)}, expected "${PROJECT_FORMAT}"`,
    }
  }
  const version = head['version']
  if (typeof version === 'number' && Number.isInteger(version) && version > PROJECT_VERSION) {
    return {
      ok: false,
      problem: 'newer',
      message: `${fileName} was saved by a newer version of Geo Analyst (project format ${version}; this version reads up to ${PROJECT_VERSION}). Update the app to open it. Nothing was changed.`,
      detail: `format version ${version} > ${PROJECT_VERSION}`,
    }
  }
  const checked = projectSchema.safeParse(data)
  if (!checked.success) {
    const first = checked.error.issues[0]
    return {
      ok: false,
      problem: 'broken',
      message: `${fileName} could not be opened: it is damaged or incomplete. Nothing was changed.`,
      detail:
        checked.error.issues
          .slice(0, 5)
          .map((i) => `${issuePath(i.path) || '(file)'}: ${i.message}`)
          .join('; ') || first?.message,
    }
  }
  // A file saved before an area took its name now (`fleet` layers) opens with the same layers.
  return { ok: true, project: { ...checked.data, layers: withCurrentAreaIds(checked.data.layers) } }
}
