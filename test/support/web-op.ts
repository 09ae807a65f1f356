import type { WebHost } from '../../electron/web/server'

export interface OpAnswer {
  ok: boolean
  value?: Record<string, unknown>
  error?: Record<string, unknown>
}

/** An operation of the contract through the browser host's `POST /api/op/NAME`, with its session secret. */
export function webOp(host: WebHost): (name: string, payload: unknown) => Promise<OpAnswer> {
  return async (name, payload) =>
    (await (
      await fetch(`${host.url}api/op/${name}`, {
        method: 'POST',
        headers: { 'x-geo-session': host.secret, 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      })
    ).json()) as OpAnswer
}
