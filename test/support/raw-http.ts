import net from 'node:net'

export interface RawAnswer {
  /** Everything the server sent before it closed the connection (or the wait ended). */
  text: string
  /** The status code of the first response line, or null when no response came. */
  status: number | null
  /** How the connection ended: the server closed it, reset it, or the wait ran out. */
  ended: 'closed' | 'reset' | 'timeout'
}

/**
 * Send bytes exactly as given to 127.0.0.1:port and collect the answer, as a hostile client would:
 * no HTTP library in between to refuse or repair a malformed request line.
 */
export function rawRequest(
  port: number,
  bytes: string | Buffer,
  options: { timeoutMs?: number } = {},
): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port })
    const chunks: Buffer[] = []
    let settled = false
    const finish = (ended: RawAnswer['ended']) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      const text = Buffer.concat(chunks).toString('latin1')
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(text)
      resolve({ text, status: match ? Number(match[1]) : null, ended })
    }
    const timer = setTimeout(() => finish('timeout'), options.timeoutMs ?? 10_000)
    socket.on('connect', () => socket.write(bytes))
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('end', () => finish('closed'))
    socket.on('close', () => finish('closed'))
    socket.on('error', () => finish('reset'))
  })
}

/** A GET request line with `target` taken literally, with a Host header naming the server. */
export function rawGet(port: number, target: string, extraHeaders = ''): string {
  return `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${extraHeaders}Connection: close\r\n\r\n`
}

/** Fetch options for a body sent in chunks without a declared length (`times` copies of `chunk`). */
export function streamedBody(chunk: Uint8Array, times: number): RequestInit {
  let sent = 0
  return {
    duplex: 'half',
    body: new ReadableStream({
      pull(controller) {
        if (sent++ < times) controller.enqueue(chunk)
        else controller.close()
      },
    }),
  } as RequestInit
}
