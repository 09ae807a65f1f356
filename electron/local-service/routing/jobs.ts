import type { JobIo, WorkerPart } from '../pool/job'
import { importNetwork, type ImportOptions, type ImportOutcome } from './data/import-network'
import type {
  InfoJob,
  MatrixJob,
  PredictiveJob,
  RandomPointsJob,
  RouteJob,
  RoutingJob,
  SnapJob,
} from './engine/jobs'
import { RoutingEngine } from './engine/routing-engine'

/** One engine per worker thread: loaded networks and their hierarchies stay between jobs. */
let engine: RoutingEngine | undefined
/** The worker's routing engine, shared with other areas' jobs that route (the simulated fleet's trips). */
export const routingEngine = () => (engine ??= new RoutingEngine())

const run = <J extends RoutingJob>(job: J) => routingEngine().run(job)

/** An import as a pool job: the extract read and the graph built in the worker, progress as it goes. */
export type ImportJob = Omit<ImportOptions, 'onProgress' | 'signal'>

/**
 * The routing area's job kinds, run in the worker pool. Each takes and returns plain data (see
 * engine/jobs.ts); a cancelled job's worker is stopped by the pool, which ends an import at once (nothing
 * is written until the graph is complete, and then atomically).
 */
export const routingJobs = {
  'routing.matrix': (job: MatrixJob) => run(job),
  'routing.predictive': (job: PredictiveJob) => run(job),
  'routing.route': (job: RouteJob) => run(job),
  'routing.snap': (job: SnapJob) => run(job),
  'routing.randomPoints': (job: RandomPointsJob) => run(job),
  'routing.info': (job: InfoJob) => run(job),
  'routing.import': (job: ImportJob, io: JobIo): Promise<ImportOutcome> =>
    importNetwork({
      ...job,
      onProgress: (p) => io.progress({ phase: p.phase, done: Math.round(p.fraction * 1000), total: 1000 }),
    }),
}

/** Memory the routing engine holds in a worker beyond the V8 heap (typed arrays of networks and hierarchies). */
export function routingWorkerBytes(): number {
  return engine?.bytes() ?? 0
}

/** The routing caches of a worker, for diagnostics: loaded networks, their metrics (hierarchies), bytes. */
export function routingCaches(): Record<string, number> {
  const stats = engine?.stats() ?? { networks: 0, metrics: 0, bytes: 0 }
  return {
    'routing.networks.count': stats.networks,
    'routing.metrics.count': stats.metrics,
    'routing.bytes': stats.bytes,
  }
}

/** The routing area's part of a pool worker, listed in `../job-list.ts`. */
export const routingWorker = {
  jobs: routingJobs,
  externalBytes: routingWorkerBytes,
  caches: routingCaches,
} satisfies WorkerPart
