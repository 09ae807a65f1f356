import type { LocalServiceHandle } from '../core/app-core'
import type { LocalServiceDatabase } from '../core/app/postgis-profile'
import type { LocalServiceOptions } from '../local-service'
import type { ServiceReport, ServiceRequest } from '../local-service/process-protocol'

/**
 * Starts the built-in local service in a process of its own and hands the core its handle. In the
 * desktop app the process is an Electron utility process (so no route of the service runs on the main
 * process's thread); tests fork it with Node. This file must not import `electron`: the host passes a
 * `fork` that makes the process.
 */

/** The service's process as the launcher sees it. */
export interface ServiceChild {
  postMessage(request: ServiceRequest): void
  onMessage(listener: (message: unknown) => void): void
  /** Once, when the process ended; `code` null when it was killed by a signal. */
  onExit(listener: (code: number | null) => void): void
  kill(): void
}

export interface LauncherOptions {
  /**
   * Make the service's process. `env`, when given, is added to the process's environment (a PostGIS
   * workspace's password as `PGPASSWORD`, as libpq takes it): never put in argv, a message or a file.
   */
  fork: (env?: Readonly<Record<string, string>>) => ServiceChild
  service: LocalServiceOptions
  /** How long the service may take to report ready (default 60 s: the first start writes the sample workspace). */
  handshakeTimeoutMs?: number
  /** How long a stop may take before the process is killed (default 5 s). */
  stopTimeoutMs?: number
  /** Unexpected exits tolerated within `crashWindowMs`; past them, starts are refused (default 3 in 10 minutes). */
  maxCrashes?: number
  crashWindowMs?: number
  now?: () => number
}

/** The core's handle on a running service, told when the process ends unexpectedly. */
export interface LaunchedService extends LocalServiceHandle {
  port: number
  /** The database the service serves as its workspace (no password in it), when it serves one. */
  databaseUri?: string
  /** Called once if the process ends without being asked to (a crash, or killed from outside). */
  onExit(listener: (reason: string) => void): void
}

/**
 * Restart policy: the service is not restarted behind the core's back (its port and credentials would
 * change under requests in flight). When it ends unexpectedly the handle says so, the core drops it, and
 * the next call that needs it starts a new one. A service that keeps ending (`maxCrashes` within
 * `crashWindowMs`) is not started again: the start fails with the exits named.
 */
export class LocalServiceLauncher {
  private readonly crashes: Array<{ at: number; reason: string }> = []
  private readonly now: () => number

  constructor(private readonly options: LauncherOptions) {
    this.now = options.now ?? Date.now
  }

  /**
   * Start a service: over its folder workspace, or over the database `database` names (a PostGIS workspace
   * profile's decision, `localServiceDatabase`): the URI goes in the start message, the password only in the
   * new process's environment.
   */
  async start(database?: LocalServiceDatabase | null): Promise<LaunchedService> {
    const window = this.options.crashWindowMs ?? 10 * 60_000
    const recent = this.crashes.filter((c) => c.at > this.now() - window)
    if (recent.length >= (this.options.maxCrashes ?? 3)) {
      throw new Error(
        `the local service ended unexpectedly ${recent.length} times in ${Math.round(window / 60_000)} minutes (last: ${recent.at(-1)?.reason}); restart the app`,
      )
    }
    const env = Object.fromEntries(
      Object.entries(database?.env ?? {}).filter((entry): entry is [string, string] => !!entry[1]),
    )
    const child = Object.keys(env).length > 0 ? this.options.fork(env) : this.options.fork()
    const service = database
      ? { ...this.options.service, databaseUri: database.databaseUri }
      : this.options.service
    let exited: ((code: number | null) => void) | undefined
    // Only an exit after `ready` and not asked for is a crash; a failed start is reported as itself.
    let running = false
    let stopping = false
    const exitListeners: Array<(reason: string) => void> = []
    const exit = new Promise<number | null>((resolve) => child.onExit((code) => resolve(code)))
    void exit.then((code) => {
      exited?.(code)
      if (stopping || !running) return
      const reason = code === null ? 'killed by a signal' : `exit code ${code}`
      this.crashes.push({ at: this.now(), reason })
      for (const listener of exitListeners) listener(reason)
    })

    const ready = await this.handshake(child, exit, service)
    running = true
    const stopTimeoutMs = this.options.stopTimeoutMs ?? 5000
    let closing: Promise<void> | undefined
    return {
      port: ready.port,
      urls: ready.urls,
      token: ready.token,
      licenceKey: ready.licenceKey,
      ...(database ? { databaseUri: database.databaseUri } : {}),
      onExit: (listener) => void exitListeners.push(listener),
      close() {
        closing ??= (async () => {
          stopping = true
          const ended = new Promise<void>((resolve) => {
            exited = () => resolve()
          })
          child.postMessage({ type: 'stop' })
          const timer = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), stopTimeoutMs))
          if ((await Promise.race([ended, timer])) === 'late') child.kill()
        })()
        return closing
      },
    }
  }

  /** Send `start` and wait for `ready`; a failure, an early exit or silence past the timeout rejects. */
  private handshake(
    child: ServiceChild,
    exit: Promise<number | null>,
    service: LocalServiceOptions,
  ): Promise<Extract<ServiceReport, { type: 'ready' }>> {
    const timeoutMs = this.options.handshakeTimeoutMs ?? 60_000
    return new Promise((resolve, reject) => {
      let done = false
      const finish = (error: Error | null, ready?: Extract<ServiceReport, { type: 'ready' }>) => {
        if (done) return
        done = true
        clearTimeout(timer)
        if (error) {
          child.kill()
          reject(error)
        } else resolve(ready!)
      }
      const timer = setTimeout(
        () =>
          finish(
            new Error(`the local service did not report ready within ${Math.round(timeoutMs / 1000)} s`),
          ),
        timeoutMs,
      )
      child.onMessage((message) => {
        const report = message as ServiceReport | null
        if (report?.type === 'ready') finish(null, report)
        else if (report?.type === 'failed') finish(new Error(report.message))
      })
      void exit.then((code) =>
        finish(
          new Error(
            `the local service's process ended before it was ready (${code === null ? 'killed' : `exit code ${code}`})`,
          ),
        ),
      )
      child.postMessage({ type: 'start', options: service })
    })
  }
}
