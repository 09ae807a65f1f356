import { geoError, type GeoError, type JoinRun, type Result } from '../../contract'
import { issuesFailure, type RawParams } from '../../contract/common/issues'
import { validateJoinRequest } from '../../contract/gis/join-params'
import type { JoinOutcome } from '../../contract/gis/layers'
import type { EventBus } from '../events'
import type { PartTap } from '../../contract/frames'
import { GeoFailure } from '../../base/geo-failure'
import type { RunHistory } from '../workspace/run-history'
import { joinRunFromOutcome, type JoinRunInput } from './join-result'

/** How a join reaches the provider: the client's `gis.join` over the active profile. */
export type JoinSender = (
  params: RawParams,
  body: unknown,
  /** `tap`: where the rows go while they arrive (the browser host's page). */
  options: { signal: AbortSignal; tap?: PartTap },
) => Promise<Result<JoinOutcome>>

type Phase = 'queued' | 'sending' | 'waiting' | 'receiving' | 'done' | 'cancelled' | 'failed'

/** Progress heartbeat while the provider works, so elapsed time and cancel stay live in the UI. */
export const HEARTBEAT_MS = 500

export function geoFailureOf(error: GeoError): GeoFailure {
  const { failureClass, message, retry: _retry, ...extra } = error
  return new GeoFailure(failureClass, message, extra)
}

/**
 * The joins in flight, by the renderer's runId: each runs with its own AbortController (cancel aborts
 * the request; the local service then stops the join's worker), reports `job.progress`
 * (queued → sending → waiting… → receiving → done | cancelled | failed, with elapsed time), is recorded
 * in the run history whatever its outcome, and announces a saved dataset with `datasets.changed`.
 */
export class JoinRuns {
  private readonly running = new Map<string, AbortController>()

  constructor(
    private readonly options: {
      send: JoinSender
      events: EventBus
      history: RunHistory
      /** The active profile's name, for the record. */
      profile: () => Promise<string>
      heartbeatMs?: number
      now?: () => number
    },
  ) {}

  isRunning(runId: string): boolean {
    return this.running.has(runId)
  }

  /** Abort a running join; false when no join with this runId is running. */
  cancel(runId: string): boolean {
    const controller = this.running.get(runId)
    if (!controller) return false
    controller.abort()
    return true
  }

  async run(request: JoinRunInput, tap?: PartTap): Promise<JoinRun> {
    const { runId, params, body } = request
    if (this.running.has(runId)) {
      throw new GeoFailure('conflict', `gis.join: a join with runId ${runId} is already running`, {
        field: 'runId',
      })
    }
    const now = this.options.now ?? Date.now
    const started = now()
    const controller = new AbortController()
    this.running.set(runId, controller)
    const progress = (phase: Phase, bytes?: number) =>
      this.options.events.emit('job.progress', {
        runId,
        phase,
        elapsedMs: now() - started,
        ...(bytes !== undefined ? { bytes } : {}),
      })
    const record = (extra: { status?: number; error?: GeoError; rowCount?: number; result?: JoinRun }) =>
      this.options.history
        .record(
          {
            id: runId,
            time: new Date(started).toISOString(),
            profile: profileName,
            params,
            ...(body ? { body } : {}),
            ...(extra.status !== undefined ? { status: extra.status } : {}),
            ...(extra.error ? { failureClass: extra.error.failureClass, message: extra.error.message } : {}),
            durationMs: now() - started,
            ...(extra.rowCount !== undefined ? { rowCount: extra.rowCount } : {}),
          },
          extra.result,
        )
        // The history is best effort: a full disk must not turn a finished join into a failure.
        .catch(() => undefined)
    let profileName = ''
    let heartbeat: ReturnType<typeof setInterval> | undefined
    try {
      progress('queued')
      profileName = await this.options.profile().catch(() => '')
      const checked = validateJoinRequest(params, body)
      if (!checked.ok) {
        const failure = issuesFailure('gis.join', checked.issues).error
        await record({ error: { ...failure, message: `${failure.message}; nothing was sent` } })
        progress('failed')
        throw geoFailureOf({ ...failure, message: `${failure.message}; nothing was sent` })
      }
      progress('sending', body ? JSON.stringify(body).length : 0)
      progress('waiting')
      heartbeat = setInterval(() => progress('waiting'), this.options.heartbeatMs ?? HEARTBEAT_MS)
      const outcome = await this.options.send(params, body, { signal: controller.signal, tap })
      clearInterval(heartbeat)
      if (!outcome.ok) {
        let error = outcome.error
        if (controller.signal.aborted) {
          const after = `cancelled after ${((now() - started) / 1000).toFixed(1)} s`
          // A saving join's outcome is unknown once sent: the client has compared the dataset lists before
          // and after (a dataset found comes back as a success); its message says what the check found.
          error = checked.value.params.saveAsNewDataset
            ? {
                ...error,
                code: 'cancelled',
                message: `gis.join: ${after}, outcome unknown for ${checked.value.params.newDatasetNme}: ${error.message}`,
              }
            : {
                ...error,
                failureClass: 'timeout-network',
                retry: 'bounded-retry',
                code: 'cancelled',
                message: `gis.join: ${after}; nothing was kept`,
              }
        }
        await record({ status: error.status, error })
        progress(controller.signal.aborted ? 'cancelled' : 'failed')
        throw geoFailureOf(error)
      }
      progress('receiving')
      const run = joinRunFromOutcome(runId, outcome.value, checked.value.params, now() - started)
      await record({ status: run.status, rowCount: run.rowCount, result: run })
      if (run.savedDataset) {
        this.options.events.emit('datasets.changed', { reason: `saved ${run.savedDataset}` })
      }
      progress('done')
      return run
    } catch (error) {
      if (!(error instanceof GeoFailure)) {
        const message = `gis.join failed: ${error instanceof Error ? error.message : String(error)}`
        await record({ error: geoError('unclassified', message) })
        progress('failed')
      }
      throw error
    } finally {
      clearInterval(heartbeat)
      this.running.delete(runId)
    }
  }
}
