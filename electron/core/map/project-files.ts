import { promises as fs } from 'node:fs'
import path from 'node:path'
import {
  MAX_PROJECT_BYTES,
  PROJECT_EXTENSION,
  projectNameSchema,
  readProject,
  type Project,
  type ProjectEntry,
} from '../../contract'
import { writeFileAtomic } from '../../base/atomic-write'
import { GeoFailure } from '../../base/geo-failure'

const LAST_FILE = 'last.json'

/**
 * Projects saved by name in one folder (`<data dir>/projects/<name>.geoproject.json`), written atomically,
 * and which one was opened or saved last. Reading checks the file with the contract's schema: a newer or
 * damaged file is refused with what is wrong, and the folder is left as it was.
 */
export class ProjectFiles {
  constructor(readonly dir: string) {}

  private fileOf(name: string): string {
    const checked = projectNameSchema.safeParse(name)
    if (!checked.success)
      throw new GeoFailure(
        'validation',
        `project name "${name.slice(0, 80)}": ${checked.error.issues[0]?.message}`,
        {
          field: 'name',
        },
      )
    return path.join(this.dir, `${name}${PROJECT_EXTENSION}`)
  }

  async list(): Promise<{ projects: ProjectEntry[]; last: string | null }> {
    let names: string[] = []
    try {
      names = await fs.readdir(this.dir)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
    const projects: ProjectEntry[] = []
    for (const file of names) {
      if (!file.endsWith(PROJECT_EXTENSION) || file.startsWith('.')) continue
      const name = file.slice(0, -PROJECT_EXTENSION.length)
      if (!projectNameSchema.safeParse(name).success) continue
      const stat = await fs.stat(path.join(this.dir, file)).catch(() => null)
      if (!stat?.isFile()) continue
      projects.push({ name, savedAt: stat.mtime.toISOString(), bytes: stat.size })
    }
    projects.sort((a, b) => b.savedAt.localeCompare(a.savedAt) || a.name.localeCompare(b.name))
    const last = await this.lastName()
    return { projects, last: last && projects.some((p) => p.name === last) ? last : null }
  }

  async save(name: string, project: Project): Promise<ProjectEntry> {
    const file = this.fileOf(name)
    const text = `${JSON.stringify(project, null, 1)}\n`
    if (Buffer.byteLength(text) > MAX_PROJECT_BYTES)
      throw new GeoFailure('validation', `project ${name} is larger than ${MAX_PROJECT_BYTES} bytes`, {
        field: 'project',
      })
    await writeFileAtomic(file, text, { mode: 0o644 })
    await this.remember(name)
    const stat = await fs.stat(file)
    return { name, savedAt: stat.mtime.toISOString(), bytes: stat.size }
  }

  async open(name: string): Promise<{ name: string; project: Project }> {
    const file = this.fileOf(name)
    let text: string
    try {
      const stat = await fs.stat(file)
      if (stat.size > MAX_PROJECT_BYTES)
        throw new GeoFailure(
          'validation',
          `The project ${name} is larger than ${MAX_PROJECT_BYTES} bytes; it was not opened.`,
          {
            field: 'name',
          },
        )
      text = await fs.readFile(file, 'utf8')
    } catch (error) {
      if (error instanceof GeoFailure) throw error
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        throw new GeoFailure('not-found', `There is no project named ${name}.`, { field: 'name' })
      throw error
    }
    const reading = readProject(text, `The project ${name}`)
    if (!reading.ok)
      throw new GeoFailure('validation', reading.message, {
        field: 'project',
        ...(reading.detail ? { detail: reading.detail } : {}),
      })
    await this.remember(name)
    return { name, project: reading.project }
  }

  /** The last project, read; a missing or unreadable one is a notice, never an error at start. */
  async last(): Promise<{ name: string | null; project?: Project; notice?: string }> {
    const name = await this.lastName()
    if (!name) return { name: null }
    try {
      return await this.open(name)
    } catch (error) {
      if (error instanceof GeoFailure) {
        if (error.error.failureClass === 'not-found') return { name: null }
        return { name: null, notice: error.message }
      }
      throw error
    }
  }

  private async lastName(): Promise<string | null> {
    try {
      const parsed = JSON.parse(await fs.readFile(path.join(this.dir, LAST_FILE), 'utf8')) as unknown
      const name = (parsed as { name?: unknown } | null)?.name
      return typeof name === 'string' && projectNameSchema.safeParse(name).success ? name : null
    } catch {
      return null
    }
  }

  private async remember(name: string): Promise<void> {
    await writeFileAtomic(path.join(this.dir, LAST_FILE), `${JSON.stringify({ name })}\n`, { mode: 0o644 })
  }
}
