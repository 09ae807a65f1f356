import { geosHeapBytes } from '../engine/geos'
import type { JobIo, WorkerPart } from '../pool/job'
import { datasetCacheBytes, datasetCacheCount, executeJoin, type JoinJob } from './engine/join-service'

/** The gis area's job kinds, run in the worker pool. */
export const gisJobs = {
  /** One join (§4.5): the answer streams back in parts; resolves when the last part is out. */
  'gis.join': (job: JoinJob, io: JobIo): Promise<void> =>
    executeJoin(job, (part) => io.part(part.status, part.bytes, part.last)),
}

/** Memory the gis engines hold in a worker beyond the V8 heap: the GEOS WebAssembly heap. */
export function gisWorkerBytes(): number {
  return geosHeapBytes()
}

/** The gis caches of a worker, for diagnostics: the dataset cache's estimated bytes and its tables. */
export function gisCaches(): Record<string, number> {
  return { 'gis.datasets.bytes': datasetCacheBytes(), 'gis.datasets.count': datasetCacheCount() }
}

/** The gis area's part of a pool worker, listed in `../job-list.ts`. */
export const gisWorker = {
  jobs: gisJobs,
  externalBytes: gisWorkerBytes,
  caches: gisCaches,
} satisfies WorkerPart
