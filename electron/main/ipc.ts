import { INVOKE_CHANNEL, eventChannel, fail, isEventName, type Result } from '../contract'
import { isTrustedSender, type SenderFacts } from './policy'

/** The shape of Electron's ipcMain that this module needs, so it is tested with a small fake. */
export interface IpcMainLike {
  handle(
    channel: string,
    listener: (
      event: { senderFrame: FrameLike | null; sender: { mainFrame: FrameLike } },
      ...args: unknown[]
    ) => unknown,
  ): void
}

export interface FrameLike {
  url: string
}

export function senderFacts(event: {
  senderFrame: FrameLike | null
  sender: { mainFrame: FrameLike }
}): SenderFacts {
  const frame = event.senderFrame
  return { frameUrl: frame?.url, isMainFrame: frame !== null && frame === event.sender.mainFrame }
}

/**
 * Register the one guarded entry for every operation: foreign senders and sub-frames are refused before
 * anything else, then the core's dispatcher rejects unknown operations and validates the request.
 */
export function registerOperations(
  ipcMain: IpcMainLike,
  call: (name: unknown, payload: unknown) => Promise<Result<unknown>>,
  origins: readonly string[],
): void {
  ipcMain.handle(INVOKE_CHANNEL, async (event, name, payload) => {
    if (!isTrustedSender(senderFacts(event), origins)) {
      return fail('authorization-entitlement', 'Refused: the request did not come from the app’s own page')
    }
    return call(name, payload)
  })
}

/** Forward core events to a window, only for names in the event table. */
export function forwardEvent(
  send: (channel: string, payload: unknown) => void,
  name: string,
  payload: unknown,
): void {
  if (isEventName(name)) send(eventChannel(name), payload)
}
