import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createCore } from '../../../electron/core/app-core'
import { MemorySecretStore } from '../../../electron/core/secrets/memory-secret-store'
import { createWorkspacePort } from '../../../electron/local-service'
import { Workspace } from '../../../electron/local-service/workspace/workspace'
import { startWebHost, type WebHost } from '../../../electron/web/server'
import { UploadStore, type UploadStoreOptions } from '../../../electron/web/uploads'
import { rawRequest, streamedBody } from '../../support/raw-http'
import { useTempDirs } from '../../support/temp-dir'

const tempDir = useTempDirs()
const stops: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop()
})

const WELLS = JSON.stringify({
  type: 'FeatureCollection',
  features: [0, 1, 2].map((i) => ({
    type: 'Feature',
    properties: { well: `W${i}` },
    geometry: { type: 'Point', coordinates: [77 + i, 23] },
  })),
})

/** The browser host over a core with a real local workspace, taking uploads into a private temp folder. */
async function start(options: UploadStoreOptions = {}) {
  const tmp = tempDir()
  const workspaceDir = tempDir()
  const uploads = new UploadStore({ tempDir: tmp, ...options })
  const core = await createCore({
    configDir: tempDir(),
    dataDir: tempDir(),
    host: 'web',
    version: '0',
    secretStore: new MemorySecretStore(),
    ports: { localWorkspace: createWorkspacePort(workspaceDir), importFiles: uploads },
  })
  const host: WebHost = await startWebHost({ call: core.call, events: core.events, staticDir: tmp, uploads })
  stops.push(async () => {
    await host.close()
    await uploads.close()
  })
  const headers = { 'x-geo-session': host.secret }
  const upload = (body: BodyInit, fileName = 'wells%202024.geojson', extra: Record<string, string> = {}) =>
    fetch(`${host.url}api/upload`, {
      method: 'POST',
      headers: { ...headers, 'x-file-name': fileName, ...extra },
      body,
    })
  const op = async (name: string, payload: unknown) =>
    (await (
      await fetch(`${host.url}api/op/${name}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      })
    ).json()) as { ok: boolean; value?: Record<string, unknown>; error?: Record<string, unknown> }
  /** Every file under the upload folder, however deep. */
  const held = () => readdirSync(tmp, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
  return { host, uploads, upload, op, held, tmp, workspaceDir }
}

describe('browser host uploads', () => {
  it('streams a file to a private temp file and imports it by reference, then deletes it', async () => {
    const { upload, op, held, workspaceDir } = await start()
    const response = await upload(WELLS)
    expect(response.status).toBe(200)
    const answer = (await response.json()) as {
      ok: true
      value: { file: string; fileName: string; size: number }
    }
    expect(answer).toMatchObject({ ok: true, value: { fileName: 'wells 2024.geojson', size: WELLS.length } })
    const [file] = held()
    const full = path.join(file!.parentPath, file!.name)
    expect(statSync(full).mode & 0o777).toBe(0o600)
    expect(statSync(file!.parentPath).mode & 0o777).toBe(0o700)

    const imported = await op('datasets.import', { file: answer.value.file })
    expect(imported).toMatchObject({
      ok: true,
      value: { layername: 'wells_2024', featureCount: 3, local: true },
    })
    expect((await new Workspace(workspaceDir).manifest('wells_2024')).featureCount).toBe(3)
    expect(held()).toEqual([])
    // A reference is used once.
    expect(await op('datasets.import', { file: answer.value.file })).toMatchObject({
      ok: false,
      error: { failureClass: 'not-found', field: 'file' },
    })
  })

  it('deletes the file after a failed import too, and the workspace is unchanged', async () => {
    const { upload, op, held, workspaceDir } = await start()
    const { value } = (await (await upload('{"type":', 'broken.geojson')).json()) as {
      value: { file: string }
    }
    const failed = await op('datasets.import', { file: value.file })
    expect(failed).toMatchObject({ ok: false, error: { failureClass: 'validation', field: 'file' } })
    expect(held()).toEqual([])
    expect(await new Workspace(workspaceDir).list()).toEqual([])
  })

  it('refuses an upload over the limit with 413, keeping nothing', async () => {
    const { host, upload, held } = await start({ maxBytes: 1024 })
    const declared = await upload('x'.repeat(2048))
    expect(declared.status).toBe(413)
    expect(await declared.json()).toMatchObject({
      ok: false,
      error: { failureClass: 'validation', status: 413, message: expect.stringMatching(/1 KiB/) },
    })
    // Streamed without a declared length: refused once the limit is passed.
    const streamed = await fetch(`${host.url}api/upload`, {
      method: 'POST',
      headers: { 'x-geo-session': host.secret, 'x-file-name': 'big.geojson' },
      ...streamedBody(new TextEncoder().encode('y'.repeat(512)), 8),
    })
    expect(streamed.status).toBe(413)
    expect(held()).toEqual([])
  })

  it('deletes an upload nobody imported after its time', async () => {
    const { upload, held, uploads } = await start({ ttlMs: 200 })
    expect((await upload(WELLS)).status).toBe(200)
    expect(held()).toHaveLength(1)
    await expect.poll(() => held().length, { timeout: 5000 }).toBe(0)
    expect(uploads.pending).toBe(0)
  })

  it('deletes what a client sent before it went away', async () => {
    const { host, held, uploads } = await start()
    const head =
      `POST /api/upload HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nX-Geo-Session: ${host.secret}\r\n` +
      `X-File-Name: cut.geojson\r\nContent-Length: 100000\r\n\r\n${'z'.repeat(5000)}`
    await rawRequest(host.port, head, { timeoutMs: 300 })
    await expect.poll(() => held().length, { timeout: 5000 }).toBe(0)
    expect(uploads.pending).toBe(0)
  })

  it('refuses uploads without the session, and file names with a folder or none', async () => {
    const { host, upload, held } = await start()
    const anonymous = await fetch(`${host.url}api/upload`, {
      method: 'POST',
      headers: { 'x-file-name': 'a.geojson' },
      body: WELLS,
    })
    expect(anonymous.status).toBe(401)
    for (const name of ['..%2F..%2Fetc%2Fpasswd', 'a%5Cb.geojson', '', '%E0%A4%A', 'a%00.geojson']) {
      const refused = await upload(WELLS, name)
      expect(refused.status, name).toBe(400)
    }
    const noName = await fetch(`${host.url}api/upload`, {
      method: 'POST',
      headers: { 'x-geo-session': host.secret },
      body: WELLS,
    })
    expect(noName.status).toBe(400)
    expect(held()).toEqual([])
  })

  it('an import names a reference, never a path', async () => {
    const { op } = await start()
    expect(await op('datasets.import', { file: '/etc/passwd' })).toMatchObject({
      ok: false,
      error: { failureClass: 'validation', field: 'file' },
    })
    expect(await op('datasets.import', { file: 'A'.repeat(24) })).toMatchObject({
      ok: false,
      error: { failureClass: 'not-found' },
    })
  })

  it('keeps uploads where the local service’s start-up sweep finds them once the host is gone', async () => {
    const { upload, tmp } = await start()
    await upload(WELLS)
    const [root] = readdirSync(tmp)
    expect(root).toMatch(new RegExp(`^geo-analyst-upload-${process.pid}-[A-Za-z0-9]{6}$`))
  })

  it('removes its upload folder when the host closes', async () => {
    const { upload, uploads, tmp } = await start()
    await upload(WELLS)
    await uploads.close()
    expect(readdirSync(tmp).filter((n) => n.startsWith('geo-analyst-upload-'))).toEqual([])
    expect(existsSync(tmp)).toBe(true)
  })
})
