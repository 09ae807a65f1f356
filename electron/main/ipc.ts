import {
  INVOKE_CHANNEL,
  OFFER_FILE_CHANNEL,
  eventChannel,
  fail,
  isEventName,
  type ImportFileRef,
  type Result,
} from '../contract'
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

/** Handle a channel for the app's own page only: foreign senders and sub-frames are refused first. */
function handleGuarded(
  ipcMain: IpcMainLike,
  channel: string,
  origins: readonly string[],
  listener: (...args: unknown[]) => Promise<Result<unknown>>,
): void {
  ipcMain.handle(channel, async (event, ...args) => {
    if (!isTrustedSender(senderFacts(event), origins)) {
      return fail('authorization-entitlement', 'Refused: the request did not come from the app’s own page')
    }
    return listener(...args)
  })
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
  handleGuarded(ipcMain, INVOKE_CHANNEL, origins, (name, payload) => call(name, payload))
}

/** Register the guarded entry for files offered for import: the preload's paths become grants. */
export function registerFileOffers(
  ipcMain: IpcMainLike,
  offer: (path: unknown) => Promise<Result<ImportFileRef>>,
  origins: readonly string[],
): void {
  handleGuarded(ipcMain, OFFER_FILE_CHANNEL, origins, (path) => offer(path))
}

/** Forward core events to a window, only for names in the event table. */
export function forwardEvent(
  send: (channel: string, payload: unknown) => void,
  name: string,
  payload: unknown,
): void {
  if (isEventName(name)) send(eventChannel(name), payload)
}
