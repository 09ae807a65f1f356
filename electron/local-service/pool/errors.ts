/** The caller went away (or cancelled) before the job finished: its worker was stopped. */
export class JobCancelled extends Error {
  constructor() {
    super('the job was cancelled: the client went away')
    this.name = 'JobCancelled'
  }
}

/** The queue is full: answer 503 with `Retry-After: retryAfterSeconds`. */
export class PoolFull extends Error {
  /** The HTTP status of the answer: 503, the service is busy (429 for a user past their limit). */
  readonly status: 429 | 503 = 503
  constructor(
    readonly retryAfterSeconds: number,
    message = `the service is busy: too many jobs are waiting; retry in ${retryAfterSeconds} s`,
  ) {
    super(message)
    this.name = 'PoolFull'
  }
}

/**
 * One user has as many jobs waiting as one user may (`perUserQueue`): answer 429 with `Retry-After`. A kind of
 * PoolFull, so a caller that waits while the pool is busy waits for this too.
 */
export class UserLimit extends PoolFull {
  override readonly status = 429
  constructor(
    readonly user: string,
    readonly limit: number,
    retryAfterSeconds: number,
  ) {
    super(
      retryAfterSeconds,
      `user "${user}" already has ${limit} jobs waiting, the most one user may queue (perUserQueue ${limit}); retry in ${retryAfterSeconds} s`,
    )
    this.name = 'UserLimit'
  }
}

/** A job failed inside its worker (the engine threw): the message is the engine's, the name its class. */
export class JobFailed extends Error {
  constructor(
    message: string,
    readonly errorName: string,
  ) {
    super(message)
    this.name = 'JobFailed'
  }
}

/**
 * Seconds until `ahead` waiting jobs have run on `places` places at once, by recent durations in ms (a second
 * each when none is known yet): the Retry-After of a busy answer, 1–60.
 */
export function retryAfterSeconds(durations: readonly number[], ahead: number, places: number): number {
  const recent = durations.slice(-20)
  const mean = recent.length ? recent.reduce((a, b) => a + b, 0) / recent.length : 1000
  return Math.min(60, Math.max(1, Math.ceil((mean * (ahead + 1)) / places / 1000)))
}
