import { serveParent, type ParentPort } from './process-protocol'

/**
 * The entry of the local service's own process. In the desktop app Electron starts it as a utility
 * process (`process.parentPort`); tests and other Node hosts fork it (`process.send`). Either way it
 * waits for `start`, runs the service, and answers as `process-protocol.ts` says.
 */
interface ElectronParentPort {
  on(event: 'message', listener: (event: { data: unknown }) => void): void
  postMessage(message: unknown): void
}

function parentPort(): ParentPort {
  const electron = (process as NodeJS.Process & { parentPort?: ElectronParentPort }).parentPort
  if (electron) {
    return {
      onMessage: (listener) => electron.on('message', (event) => listener(event.data)),
      postMessage: (report) => electron.postMessage(report),
    }
  }
  const send = process.send?.bind(process)
  if (!send)
    throw new Error('process-entry: no parent to talk to (start it as a utility process or with fork)')
  // A forked service ends with its parent.
  process.on('disconnect', () => process.exit(0))
  return {
    onMessage: (listener) => process.on('message', listener),
    postMessage: (report) => void send(report),
  }
}

serveParent(parentPort(), (code) => {
  // Let the last report leave before the process ends.
  setTimeout(() => process.exit(code), 50)
})
