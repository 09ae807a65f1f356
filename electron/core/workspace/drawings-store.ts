import { promises as fs } from 'node:fs'
import path from 'node:path'
import { describeIssues, primaryIssue } from '../../contract/common/issues'
import { geoJsonIssues, type FeatureCollection } from '../../contract/gis/geojson'
import { writeFileAtomic } from '../../base/atomic-write'
import { GeoFailure } from '../../base/geo-failure'
import { parseJsonText } from '../../contract/common/json-text'

export interface LoadedDrawings {
  collection: FeatureCollection
  savedAt?: string
  /** Set when the saved file could not be read: what happened and where the damaged file was moved. */
  notice?: string
}

const EMPTY = (): FeatureCollection => ({ type: 'FeatureCollection', features: [] })

/** Problems of a drawings collection (an empty collection is fine: the user may have drawn nothing). */
export function drawingsIssues(value: unknown, prefix = 'collection') {
  const v = value as { type?: unknown; features?: unknown }
  if (v && typeof v === 'object' && v.type === 'FeatureCollection' && Array.isArray(v.features)) {
    if (v.features.length === 0) return []
  }
  return geoJsonIssues(value, prefix)
}

/**
 * The user's drawings in `<dataDir>/drawings/drawings.geojson` (RFC 7946 FeatureCollection). Saves are
 * checked with the shared GeoJSON validator, then written atomically (temp + fsync + rename); the version
 * they replace is kept as `drawings.prev.geojson`. A damaged file is never overwritten silently: it is moved
 * aside to `drawings.corrupt-<time>.geojson` and reported; the previous version is offered if it is sound.
 */
export class DrawingsStore {
  readonly file: string
  readonly previous: string
  private lock: Promise<unknown> = Promise.resolve()

  constructor(dataDir: string) {
    const dir = path.join(dataDir, 'drawings')
    this.file = path.join(dir, 'drawings.geojson')
    this.previous = path.join(dir, 'drawings.prev.geojson')
  }

  load(): Promise<LoadedDrawings> {
    return this.serialized(() => this.loadNow())
  }

  save(collection: unknown): Promise<{ savedAt: string }> {
    const issues = drawingsIssues(collection)
    if (issues.length > 0) {
      const first = primaryIssue(issues)
      return Promise.reject(
        new GeoFailure(
          'validation',
          `drawings.save: ${describeIssues(issues)}; nothing was written`,
          first ? { field: first.field } : {},
        ),
      )
    }
    return this.serialized(async () => {
      const current = await fs.readFile(this.file).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null
        throw error
      })
      // Keep the version being replaced, but only when it is sound: a damaged file must not push out a good one.
      if (current && readCollection(current.toString('utf8')).ok) {
        await writeFileAtomic(this.previous, current)
      }
      await writeFileAtomic(this.file, JSON.stringify(collection) + '\n')
      return { savedAt: new Date().toISOString() }
    })
  }

  private async loadNow(): Promise<LoadedDrawings> {
    let text: string
    try {
      text = await fs.readFile(this.file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { collection: EMPTY() }
      throw error
    }
    const read = readCollection(text)
    if (read.ok) {
      const stat = await fs.stat(this.file)
      return { collection: read.value, savedAt: stat.mtime.toISOString() }
    }
    const stamp = new Date().toISOString().replace(/[:.]/g, '-')
    const aside = path.join(path.dirname(this.file), `drawings.corrupt-${stamp}.geojson`)
    await fs.rename(this.file, aside)
    const prev = await fs.readFile(this.previous, 'utf8').then(readCollection, () => null)
    if (prev?.ok) {
      return {
        collection: prev.value,
        notice: `The saved drawings could not be read (${read.reason}); the file was moved to ${aside} and the previous version was restored.`,
      }
    }
    return {
      collection: EMPTY(),
      notice: `The saved drawings could not be read (${read.reason}); the file was moved to ${aside} and nothing was restored.`,
    }
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = this.lock.then(work)
    this.lock = run.catch(() => undefined)
    return run
  }
}

function readCollection(
  text: string,
): { ok: true; value: FeatureCollection } | { ok: false; reason: string } {
  let value: unknown
  try {
    value = parseJsonText(text)
  } catch (error) {
    return { ok: false, reason: `not valid JSON: ${(error as Error).message}` }
  }
  const issues = drawingsIssues(value)
  if (issues.length > 0) return { ok: false, reason: describeIssues(issues, 2) }
  return { ok: true, value: value as FeatureCollection }
}
