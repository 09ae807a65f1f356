import { describe, expect, it } from 'vitest'
import { OFFER_FILE_CHANNEL } from '../../../electron/contract'
import { registerFileOffers, registerOperations, type IpcMainLike } from '../../../electron/main/ipc'

function register() {
  let listener: Parameters<IpcMainLike['handle']>[1] = () => undefined
  const calls: unknown[] = []
  registerOperations(
    { handle: (_c, l) => void (listener = l) },
    async (name, payload) => (calls.push([name, payload]), { ok: true, value: 1 }),
    ['app://geo-analyst'],
  )
  return {
    invoke: (event: Parameters<typeof listener>[0], ...args: unknown[]) => listener(event, ...args),
    calls,
  }
}

describe('the guarded IPC entry', () => {
  const mainFrame = { url: 'app://geo-analyst/index.html' }

  it('passes calls from the app’s main frame to the core', async () => {
    const { invoke, calls } = register()
    await expect(
      invoke({ senderFrame: mainFrame, sender: { mainFrame } }, 'settings.get', {}),
    ).resolves.toEqual({ ok: true, value: 1 })
    expect(calls).toEqual([['settings.get', {}]])
  })

  it('refuses sub-frames and foreign pages before the core sees anything', async () => {
    const { invoke, calls } = register()
    const subFrame = { url: 'app://geo-analyst/index.html' }
    const refused = await invoke({ senderFrame: subFrame, sender: { mainFrame } }, 'settings.get', {})
    expect(refused).toMatchObject({ ok: false, error: { failureClass: 'authorization-entitlement' } })
    const foreign = { url: 'https://evil.test/' }
    await expect(
      invoke({ senderFrame: foreign, sender: { mainFrame: foreign } }, 'settings.get', {}),
    ).resolves.toMatchObject({ ok: false })
    await expect(
      invoke({ senderFrame: null, sender: { mainFrame } }, 'settings.get', {}),
    ).resolves.toMatchObject({ ok: false })
    expect(calls).toEqual([])
  })
})

describe('files offered for import over IPC', () => {
  const mainFrame = { url: 'app://geo-analyst/index.html' }

  it('passes the preload’s path from the app’s main frame to the grants, and refuses anyone else', async () => {
    const handlers = new Map<string, Parameters<IpcMainLike['handle']>[1]>()
    const offered: unknown[] = []
    registerFileOffers(
      { handle: (channel, l) => void handlers.set(channel, l) },
      async (path) => (
        offered.push(path),
        { ok: true, value: { file: 'A'.repeat(24), fileName: 'a.csv', size: 1 } }
      ),
      ['app://geo-analyst'],
    )
    const listener = handlers.get(OFFER_FILE_CHANNEL)!
    await expect(
      listener({ senderFrame: mainFrame, sender: { mainFrame } }, '/data/a.csv'),
    ).resolves.toMatchObject({
      ok: true,
    })
    const subFrame = { url: 'app://geo-analyst/index.html' }
    await expect(
      listener({ senderFrame: subFrame, sender: { mainFrame } }, '/etc/passwd'),
    ).resolves.toMatchObject({ ok: false, error: { failureClass: 'authorization-entitlement' } })
    expect(offered).toEqual(['/data/a.csv'])
  })
})
