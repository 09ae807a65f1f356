/**
 * The areas' parts of a pool worker, one line per area: `export { <area>Worker as <area> } from
 * './<area>/jobs'`. `jobs.ts` derives the job kinds and the worker's bookkeeping from them.
 */
export { gisWorker as gis } from './gis/jobs'
export { routingWorker as routing } from './routing/jobs'
export { telematicsWorker as telematics } from './telematics/jobs'
export { workspaceWorker as workspace } from './import/jobs'
export { visionWorker as vision } from './vision/jobs'
export { postgisWorker as postgis } from './postgis/join-job'
