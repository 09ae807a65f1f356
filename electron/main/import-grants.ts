import { randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import {
  ANY_IMPORT_EXTENSIONS,
  fail,
  importFileProblem,
  ok,
  type ImportFileRef,
  type Result,
} from '../contract'
import { GeoFailure } from '../base/geo-failure'
import { isInside } from '../base/path-inside'
import type { ImportFile, ImportFiles } from '../core/workspace/import-files'

/**
 * Imports in the desktop app read the file where it is: the preload takes the `File` the user chose or
 * dropped, asks Electron for its path (`webUtils.getPathForFile`, which only knows real files from
 * disk) and offers that path here; the main process grants it, or not, and answers an opaque
 * reference that `datasets.import` names. The page never names a path, so a compromised page cannot
 * make the app read `/etc/passwd` or `~/.ssh/id_rsa`; and what is offered is checked again here
 * (the real path behind links, its type, size and place), in case the offer itself was forged.
 * This file must not import `electron`.
 */

/** What the main process finds on disk for an offered path. */
export interface OfferedFileFacts {
  /** The path with every link resolved. */
  realPath: string
  isFile: boolean
  size: number
}

export type GrantDecision = { allow: true } | { allow: false; reason: string }

/** Folders of the system, never imported from (and never worth importing). */
const SYSTEM_DIRS = ['/etc', '/proc', '/sys', '/dev', '/boot', '/private/etc', '/private/var']

/** Folders under the home folder that hold keys and credentials. */
const PRIVATE_HOME_DIRS = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.kube',
  '.docker',
  '.password-store',
  '.config/gcloud',
  '.local/share/keyrings',
  'Library/Keychains',
  'AppData/Roaming/Microsoft/Credentials',
  'AppData/Local/Microsoft/Credentials',
]

/** Whether a file the user offered may be imported: an importable regular file, outside secret places. */
export function grantDecision(
  facts: OfferedFileFacts,
  home: string,
  systemDirs: readonly string[] = SYSTEM_DIRS,
): GrantDecision {
  const name = path.basename(facts.realPath)
  if (!facts.isFile) return { allow: false, reason: `${name} is not a regular file` }
  const problem = importFileProblem(name, facts.size, ANY_IMPORT_EXTENSIONS)
  if (problem) return { allow: false, reason: problem }
  if (systemDirs.some((dir) => isInside(facts.realPath, dir)))
    return { allow: false, reason: `${name} is in a system folder; copy it elsewhere to import it` }
  if (PRIVATE_HOME_DIRS.some((dir) => isInside(facts.realPath, path.join(home, dir))))
    return { allow: false, reason: `${name} is in a private folder of keys or credentials` }
  return { allow: true }
}

interface Grant {
  realPath: string
  /** The file's identity when granted: a file swapped in its place afterwards is refused. */
  identity: string
  size: number
  expires: number
}

export interface ImportGrantsOptions {
  home?: string
  /** A grant not used by then is forgotten (default 10 minutes). */
  ttlMs?: number
  now?: () => number
  systemDirs?: readonly string[]
}

const NOT_OFFERABLE = 'only a file chosen or dropped from disk can be imported'

/** Grants for files the user offered for import in the desktop app; the core's `ImportFiles` over them. */
export class ImportGrants implements ImportFiles {
  private readonly grants = new Map<string, Grant>()
  private readonly home: string
  private readonly ttlMs: number
  private readonly now: () => number
  private readonly systemDirs: readonly string[]

  constructor(options: ImportGrantsOptions = {}) {
    this.home = options.home ?? os.homedir()
    this.ttlMs = options.ttlMs ?? 10 * 60_000
    this.now = options.now ?? Date.now
    const windows = process.env.SystemRoot ? [process.env.SystemRoot] : []
    this.systemDirs = options.systemDirs ?? [...SYSTEM_DIRS, ...windows]
  }

  /** The preload offers the path Electron gave for a chosen or dropped file. */
  async offer(offered: unknown): Promise<Result<ImportFileRef>> {
    this.forgetExpired()
    if (typeof offered !== 'string' || !offered || !path.isAbsolute(offered))
      return fail('validation', NOT_OFFERABLE, { field: 'file' })
    const found = await inspect(offered)
    if (!found) return fail('validation', `${path.basename(offered)} could not be read`, { field: 'file' })
    const decision = grantDecision(found.facts, this.home, this.systemDirs)
    if (!decision.allow) return fail('validation', decision.reason, { field: 'file' })
    const id = randomBytes(18).toString('base64url')
    this.grants.set(id, {
      realPath: found.facts.realPath,
      identity: found.identity,
      size: found.facts.size,
      expires: this.now() + this.ttlMs,
    })
    return ok({ file: id, fileName: path.basename(found.facts.realPath), size: found.facts.size })
  }

  async take(ref: string): Promise<ImportFile & { release(): Promise<void> }> {
    const grant = this.grants.get(ref)
    this.grants.delete(ref)
    if (!grant || grant.expires < this.now()) {
      throw new GeoFailure(
        'not-found',
        'datasets.import: no file was chosen under this reference (it was imported already, or the choice expired); choose the file again',
        { field: 'file' },
      )
    }
    const fileName = path.basename(grant.realPath)
    // Checked again now: the file must still be the one granted, in the same place, within the limits.
    const found = await inspect(grant.realPath)
    if (!found || found.facts.realPath !== grant.realPath || found.identity !== grant.identity) {
      throw new GeoFailure(
        'validation',
        `datasets.import: ${fileName} changed since it was chosen; choose it again`,
        { field: 'file' },
      )
    }
    const decision = grantDecision(found.facts, this.home, this.systemDirs)
    if (!decision.allow)
      throw new GeoFailure('validation', `datasets.import: ${decision.reason}`, { field: 'file' })
    return { path: grant.realPath, fileName, size: found.facts.size, release: async () => {} }
  }

  /** Grants held now (offered, not used, not expired). */
  get pending(): number {
    this.forgetExpired()
    return this.grants.size
  }

  private forgetExpired(): void {
    const now = this.now()
    for (const [id, grant] of this.grants) if (grant.expires < now) this.grants.delete(id)
  }
}

/** The facts of a path on disk, or null when it cannot be read. */
async function inspect(file: string): Promise<{ facts: OfferedFileFacts; identity: string } | null> {
  try {
    const realPath = await fs.realpath(file)
    const stat = await fs.stat(realPath)
    return {
      facts: { realPath, isFile: stat.isFile(), size: stat.size },
      identity: `${stat.dev}:${stat.ino}`,
    }
  } catch {
    return null
  }
}
