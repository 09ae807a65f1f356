import { fetch, type Agent } from 'undici'

/** Resolves after `ms`, or at once when `signal` aborts. */
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve()
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer)
        resolve()
      },
      { once: true },
    )
  })

/**
 * One request of `bench:team`'s simulated users, timed: the body read whole; a 429/503 with Retry-After
 * waits it (at most 5 s) before the call returns, as the app's transport does. Status -1: no answer (or
 * the caller aborted it: `signal`).
 */
export async function timedCall(
  agent: Agent,
  url: string,
  token: string,
  init: { method?: string; body?: string; signal?: AbortSignal } = {},
): Promise<{ status: number; ms: number; retryAfter: boolean }> {
  const t0 = performance.now()
  let status = -1
  let retryAfter = false
  try {
    const response = await fetch(url, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${token}`,
        ...(init.body ? { 'content-type': 'application/json' } : {}),
      },
      ...(init.body ? { body: init.body } : {}),
      ...(init.signal ? { signal: init.signal } : {}),
      dispatcher: agent,
    })
    await response.arrayBuffer()
    status = response.status
    retryAfter = response.headers.has('retry-after')
    // The wait ends early when the caller leaves (the heavy user's phase is over).
    if ((status === 429 || status === 503) && retryAfter)
      await sleep(Math.min(5, Number(response.headers.get('retry-after')) || 1) * 1000, init.signal)
  } catch {
    status = -1
  }
  return { status, ms: performance.now() - t0, retryAfter }
}
