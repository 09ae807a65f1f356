import path from 'node:path'
import { Workspace, WorkspaceError, type DatasetManifest } from '../workspace/workspace'
import { ImportError } from './crs'
import { stageImport } from './import-dataset'

/**
 * An import as a serializable job: what a worker needs to read a file and write the dataset into a
 * staging folder. The caller chose the staging folder, so it can remove it whatever happens to the
 * worker, and makes the dataset visible itself (`Workspace.commit`) once the worker is done.
 */
export interface ImportJob {
  kind: 'import'
  workspaceDir: string
  file: string
  name: string
  displayName?: string
  skipInvalid?: boolean
  stagingDir: string
}

export type ImportPhase = 'reading' | 'storing'

/** What a job's failure is, as data (errors cross the thread boundary as values). */
export interface ImportJobFailure {
  kind: 'import' | 'invalid-features' | 'invalid-name' | 'conflict' | 'not-found' | 'corrupt' | 'internal'
  message: string
}

/** What the job resolves with: the staged dataset's manifest, or its failure as data. */
export type ImportJobOutcome =
  { ok: true; manifest: DatasetManifest } | { ok: false; failure: ImportJobFailure }

/** Engine errors met while reading a file the readers did not foresee, in words about the file. */
function readingFailure(error: Error, file: string): ImportError {
  const name = path.basename(file)
  if (error instanceof RangeError) {
    return new ImportError(
      `${name} is too large or too deeply nested to read (${error.message.slice(0, 80)}); split it or convert it to FlatGeobuf`,
    )
  }
  return new ImportError(`${name} could not be read (${error.message.slice(0, 120)})`)
}

export function failureOf(error: unknown): ImportJobFailure {
  if (error instanceof ImportError) {
    return { kind: error.code === 'invalid-features' ? 'invalid-features' : 'import', message: error.message }
  }
  if (error instanceof WorkspaceError) return { kind: error.kind, message: error.message }
  return { kind: 'internal', message: error instanceof Error ? error.message : String(error) }
}

/** The error a failure stands for, on the caller's side of the thread boundary. */
export function errorOf(failure: ImportJobFailure): Error {
  switch (failure.kind) {
    case 'import':
      return new ImportError(failure.message)
    case 'invalid-features':
      return new ImportError(failure.message, 'invalid-features')
    case 'internal':
      return new Error(failure.message)
    default:
      return new WorkspaceError(failure.kind, failure.message)
  }
}

/** Run one import job in this thread: read and check the file, then stage the dataset. */
export async function executeImportJob(
  job: ImportJob,
  onPhase: (phase: ImportPhase) => void = () => {},
): Promise<DatasetManifest> {
  let phase: ImportPhase = 'reading'
  onPhase(phase)
  try {
    const staged = await stageImport(
      new Workspace(job.workspaceDir),
      job.file,
      job.name,
      { displayName: job.displayName, skipInvalid: job.skipInvalid },
      job.stagingDir,
      (next) => onPhase((phase = next)),
    )
    return staged.manifest
  } catch (error) {
    const known = error instanceof ImportError || error instanceof WorkspaceError
    if (phase !== 'reading' || known || !(error instanceof Error)) throw error
    throw readingFailure(error, job.file)
  }
}
