import { existsSync } from 'node:fs'
import { connect, createServer as createNetServer, type AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from '../../../../electron/core/client/create-client'
import { Redactor } from '../../../../electron/core/http/redactor'
import { closeTrustedAgents } from '../../../../electron/core/http/trusted-fetch'
import { startLocalService } from '../../../../electron/local-service/index'
import {
  baseUrls,
  createLocalServer,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_ROW_CAP,
  listen,
} from '../../../../electron/local-service/server'
import { readTlsFiles } from '../../../../electron/local-service/team/tls-files'
import { feature, runService, tempDir, TOKEN, type Running } from '../helpers'
import { makeTestPki, type TestPki } from '../../../support/tls'

let pki: TestPki
let otherPki: TestPki
let svc: Running

beforeAll(async () => {
  ;[pki, otherPki] = await Promise.all([makeTestPki(), makeTestPki()])
  svc = await runService(
    { cities: [feature({ type: 'Point', coordinates: [1, 1] }, { name: 'a' })] },
    { listen: { host: '127.0.0.1', port: 0 }, tls: { certFile: pki.certFile, keyFile: pki.keyFile } },
  )
}, 60_000)

afterAll(async () => {
  await svc?.stop()
  await closeTrustedAgents()
  await Promise.all([pki?.remove(), otherPki?.remove()])
})

/** The core client as a remote profile builds it: the service's URLs, its token, maybe the profile's CA. */
function profileClient(caCertificate?: string) {
  return createClient({
    urls: svc.service.urls,
    credential: async () => TOKEN,
    redactor: new Redactor(),
    ...(caCertificate ? { caCertificate } : {}),
    transport: { sleep: async () => undefined, retry: { attemptTimeoutMs: 10_000 } },
  })
}

/** A port nothing listens on now (for "nothing was bound"). */
async function freePort(): Promise<number> {
  const probe = createNetServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  return port
}

function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'))
  })
}

describe('the local service over TLS', () => {
  it('reports https base URLs for the bound host', () => {
    for (const url of Object.values(svc.service.urls)) expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\//)
    expect(svc.service.urls.mgis_v2_url).toBe(`https://127.0.0.1:${svc.service.port}/mgis/v2`)
  })

  it('answers the core client of a profile that trusts the server’s CA', async () => {
    const result = await profileClient(pki.caPem).gis.layers()
    expect(result.ok).toBe(true)
    expect(JSON.stringify(result)).toContain('cities')
  })

  it('refuses, as a profile setting to fix and without retrying, a profile without the CA', async () => {
    // Another profile trusting the CA in this process must not make this one trust it.
    expect((await profileClient(pki.caPem).gis.layers()).ok).toBe(true)
    for (const ca of [undefined, otherPki.caPem]) {
      const result = await profileClient(ca).gis.layers()
      expect(result.ok).toBe(false)
      if (result.ok) return
      expect(result.error.failureClass).toBe('local-configuration')
      expect(result.error.message).toMatch(
        /the server's TLS certificate is not trusted \((SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)\); if the server has its own CA, add its CA certificate to the profile/,
      )
      expect(result.error.message).not.toMatch(/after \d+ attempts/)
    }
  })

  it('keeps one connection alive across requests', async () => {
    const dir = await tempDir()
    const local = await createLocalServer({
      workspaceDir: dir,
      token: TOKEN,
      licenceKey: 'licence-key-for-the-test',
      entitlements: {},
      rowCap: DEFAULT_ROW_CAP,
      maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
      pool: {},
      areas: [],
      tls: await readTlsFiles(pki.certFile, pki.keyFile),
    })
    let connections = 0
    let handshakes = 0
    local.server.on('connection', () => connections++)
    local.server.on('secureConnection', () => handshakes++)
    try {
      const port = await listen(local.server, 0, '127.0.0.1')
      const urls = baseUrls(port, { host: '127.0.0.1', tls: true })
      const client = createClient({
        urls,
        credential: async () => TOKEN,
        redactor: new Redactor(),
        caCertificate: otherPki.caPem + '\n' + pki.caPem,
        transport: { sleep: async () => undefined },
      })
      for (let i = 0; i < 3; i++) {
        // A moment between requests, as between a person's actions: the finished exchange returns its
        // connection to the pool (back to back, the pool may open a second one while the first settles).
        await new Promise((resolve) => setTimeout(resolve, 25))
        const result = await client.gis.layers()
        // No area runs here: the router answers 501 (no such operation), over TLS all the same.
        expect(result.ok ? 200 : result.error.status).toBe(501)
      }
      expect(handshakes).toBe(1)
      expect(connections).toBe(1)
      expect(local.server.keepAliveTimeout).toBeGreaterThanOrEqual(60_000)
      expect(local.server.headersTimeout).toBeGreaterThan(local.server.keepAliveTimeout)
    } finally {
      await local.stop()
      local.server.closeAllConnections()
      await new Promise((resolve) => local.server.close(resolve))
    }
  })

  it('refuses to start, naming the file, with nothing bound, when a TLS file cannot serve', async () => {
    const dir = await tempDir()
    const cases: Array<[{ certFile: string; keyFile: string }, RegExp]> = [
      [
        { certFile: pki.certFile, keyFile: pki.otherKeyFile },
        new RegExp(`the TLS key ${pki.otherKeyFile} does not belong to the certificate ${pki.certFile}`),
      ],
      [
        { certFile: `${pki.dir}/missing.pem`, keyFile: pki.keyFile },
        new RegExp(`cannot read the TLS certificate ${pki.dir}/missing.pem: no such file`),
      ],
      [
        { certFile: pki.keyFile, keyFile: pki.keyFile },
        new RegExp(`the TLS certificate ${pki.keyFile} is not a PEM certificate`),
      ],
      [
        { certFile: pki.certFile, keyFile: pki.certFile },
        new RegExp(`the TLS key ${pki.certFile} is not a PEM private key`),
      ],
    ]
    for (const [tls, message] of cases) {
      const port = await freePort()
      await expect(
        startLocalService({ workspaceDir: dir, sampleData: false, listen: { host: '127.0.0.1', port }, tls }),
      ).rejects.toThrow(message)
      expect(await refusesConnections(port)).toBe(true)
    }
  })

  it('refuses off loopback without TLS or without a users file, before anything starts', async () => {
    const dir = `${await tempDir()}/never-created`
    const tls = { certFile: pki.certFile, keyFile: pki.keyFile }
    for (const extra of [{}, { tls }, { usersFile: `${dir}/users.json` }]) {
      await expect(
        startLocalService({
          workspaceDir: dir,
          sampleData: false,
          listen: { host: '0.0.0.0', port: 0 },
          ...extra,
        }),
      ).rejects.toThrow(/^binding to 0\.0\.0\.0 needs TLS \(a certificate and key\) and a users file/)
      // The service starts by creating its workspace folder: refused before, it never did.
      expect(existsSync(dir)).toBe(false)
    }
  })
})
