import type { BaseUrls } from '../contract/settings'
import { startLocalService, type LocalService, type LocalServiceOptions } from './index'

/**
 * How the app talks to the local service when it runs in a process of its own (in the desktop app an
 * Electron utility process, so no route of the service runs on the main process's thread): the parent
 * sends `start` with the options, the service answers `ready` with where it listens and its
 * credentials, or `failed` with why; `stop` closes it and it answers `stopped`.
 */
export type ServiceRequest = { type: 'start'; options: LocalServiceOptions } | { type: 'stop' }

export type ServiceReport =
  | { type: 'ready'; port: number; urls: BaseUrls; token: string; licenceKey: string }
  | { type: 'failed'; message: string }
  | { type: 'stopped' }

/** The parent end as the service's process sees it: Electron's `process.parentPort` or Node's IPC. */
export interface ParentPort {
  onMessage(listener: (message: unknown) => void): void
  postMessage(report: ServiceReport): void
}

function isRequest(message: unknown): message is ServiceRequest {
  const type = (message as { type?: unknown } | null)?.type
  return (
    (type === 'start' && typeof (message as { options?: unknown }).options === 'object') || type === 'stop'
  )
}

/**
 * Serve the parent: start once on `start`, report, stop on `stop`. `exit` ends the process once the
 * service stopped (0) or failed to start (1). Messages that are not requests are ignored.
 */
export function serveParent(
  parent: ParentPort,
  exit: (code: number) => void,
  start: (options: LocalServiceOptions) => Promise<LocalService> = startLocalService,
): void {
  let service: Promise<LocalService | null> | undefined
  parent.onMessage((message) => {
    if (!isRequest(message)) return
    if (message.type === 'start') {
      if (service) return
      service = start(message.options).then(
        (running) => {
          const { port, urls, token, licenceKey } = running
          parent.postMessage({ type: 'ready', port, urls, token, licenceKey })
          return running
        },
        (error: unknown) => {
          parent.postMessage({ type: 'failed', message: (error as Error)?.message ?? String(error) })
          exit(1)
          return null
        },
      )
      return
    }
    void (async () => {
      await (await service)?.close()
      parent.postMessage({ type: 'stopped' })
      exit(0)
    })()
  })
}
