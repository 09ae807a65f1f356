import { describe, expect, it } from 'vitest'
import { registerOperations, type IpcMainLike } from '../../../electron/main/ipc'

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
