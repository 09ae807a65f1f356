import { describe, expect, it } from 'vitest'
import * as PARTS from '../../../electron/local-service/job-list'
import { JOB_KINDS, jobTable, workerCaches, workerExternalBytes } from '../../../electron/local-service/jobs'
import type { WorkerPart } from '../../../electron/local-service/pool/job'

describe('the worker pool’s job kinds, from the areas’ parts (job-list.ts)', () => {
  it('holds every area’s kinds, each named after its area', () => {
    const kinds = Object.keys(JOB_KINDS).sort()
    expect(kinds).toEqual(
      expect.arrayContaining([
        'gis.join',
        'routing.matrix',
        'telematics.trips',
        'vision.blur',
        'workspace.import',
      ]),
    )
    for (const [area, part] of Object.entries(PARTS) as Array<[string, WorkerPart]>)
      for (const kind of Object.keys(part.jobs)) expect(kind.startsWith(`${area}.`), kind).toBe(true)
  })

  it('refuses a kind two areas claim, naming both', () => {
    const handler = () => Promise.resolve(null)
    expect(() =>
      jobTable([
        ['gis', { jobs: { 'gis.join': handler } }],
        ['probe', { jobs: { 'gis.join': handler } }],
      ]),
    ).toThrow('job kind "gis.join" is claimed by both gis and probe (job-list.ts)')
  })

  it('adds up the engines’ memory and caches of a worker that has run nothing yet', () => {
    expect(workerExternalBytes()).toBeGreaterThanOrEqual(0)
    expect(workerCaches()).toMatchObject({ 'gis.datasets.count': 0, 'routing.networks.count': 0 })
  })
})
