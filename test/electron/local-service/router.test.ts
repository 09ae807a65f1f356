import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createRouter,
  decodeSegments,
  requestTarget,
  BEARER,
  licenceKeySegment,
  type Route,
} from '../../../electron/local-service/router'
import { GROUP_PREFIXES } from '../../../electron/local-service/server'
import { feature, runService, square, TOKEN, userGeometry, type Running } from './helpers'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** Send raw bytes and read what comes back until the server closes or answers (bounded by a timeout). */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    let answer = ''
    const timer = setTimeout(() => {
      socket.destroy()
      resolve(answer)
    }, 5_000)
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1')
      if (/\r\n\r\n/.test(answer)) {
        clearTimeout(timer)
        socket.destroy()
        resolve(answer)
      }
    })
    socket.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    socket.on('close', () => {
      clearTimeout(timer)
      resolve(answer)
    })
    socket.write(text)
  })
}

describe('path helpers', () => {
  it('decodes every segment, and refuses a malformed escape', () => {
    expect(decodeSegments('/a/b%20c/%E0%A4%95')).toEqual(['a', 'b c', 'क'])
    expect(decodeSegments('/a/%ZZ')).toBeNull()
    expect(decodeSegments('/a/%E0%A4%A')).toBeNull()
  })
  it('reads only origin-form targets as paths', () => {
    expect(requestTarget('/x?y=1')).toEqual({ pathname: '/x', search: '?y=1' })
    for (const bad of ['//[', '//a:b@', 'http://[', '*', 'x', '/a b'])
      expect(requestTarget(bad), bad).toBeNull()
  })
})

describe('the local service router', () => {
  let svc: Running
  let port: number
  beforeAll(async () => {
    svc = await runService({ squares: [feature(square(0, 0, 1, 1), { name: 'a' })] })
    port = svc.service.port
  })
  afterAll(() => svc.stop())

  const base = () => `http://127.0.0.1:${port}`
  const auth = { authorization: `Bearer ${TOKEN}` }

  it('answers 400 for request targets that are not paths, and stays up', async () => {
    for (const target of ['//[', '//a:b@', '//%', '//x:99999/', '//[::1', 'http://[']) {
      const answer = await raw(port, `GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`)
      expect(answer, target).toMatch(/^HTTP\/1\.1 400 /)
    }
    expect((await fetch(`${base()}/mgis/v2/getLayersList`, { headers: auth })).status).toBe(200)
  })

  it('answers 400 with a JSON reason for %ZZ in any path, the licence key segment included', async () => {
    const key = svc.service.licenceKey
    for (const path of [
      '/mgis/v2/getLayers%ZZ',
      '/mgis/query_apply/%ZZ',
      '/atlas/api/places/%ZZ',
      `/advancedmaps/${key}/distance_matrix/driving/77,28;%ZZ`,
      '/advancedmaps/%ZZ/distance_matrix/driving/77,28',
      '/telematics/%E0%A4%A',
      '/aiml/%ZZ',
      '/%ZZ',
    ]) {
      const r = await fetch(base() + path, { headers: auth })
      expect(r.status, path).toBe(400)
      expect(((await r.json()) as { message: string }).message).toMatch(/percent-escape/)
    }
  })

  it('404 with a JSON body for unknown paths, after the credential is checked', async () => {
    const unknown = await fetch(`${base()}/mgis/v2/nothing`, { headers: auth })
    expect(unknown.status).toBe(404)
    expect(((await unknown.json()) as { success: boolean }).success).toBe(false)
    expect((await fetch(`${base()}/mgis/v2/nothing`)).status).toBe(401)
    const outside = await fetch(`${base()}/elsewhere`)
    expect(outside.status).toBe(404)
    expect(((await outside.json()) as { message: string }).message).toMatch('/atlas')
  })

  it('reads a JSON body that starts with a UTF-8 byte order mark as the JSON it holds', async () => {
    // A user geometry saved by Windows Notepad and sent as it is (curl --data-binary @area.geojson).
    const geojson = JSON.stringify(userGeometry(square(-1, -1, 2, 2)))
    const query = new URLSearchParams({
      queryType: 'spatialOperation',
      datasetSource: 'squares',
      operator: 'Intersects',
      sourceProperty: 'geom',
      userGeom: 'true',
      selectionParamSource: 'name',
    })
    const send = (body: Buffer) =>
      fetch(`${base()}/mgis/query_apply/join?${query}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: new Blob([new Uint8Array(body)]),
      })
    const plain = await send(Buffer.from(geojson))
    expect(plain.status).toBe(200)
    const withBom = await send(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(geojson)]))
    expect(withBom.status).toBe(200)
    expect(await withBom.json()).toEqual(await plain.json())
  }, 60_000)

  it('405 with Allow for a known path and another method', async () => {
    const r = await fetch(`${base()}/mgis/v2/getLayersList`, { method: 'DELETE', headers: auth })
    expect(r.status).toBe(405)
    expect(r.headers.get('allow')).toBe('GET')
  })
})

/** Every byte of a text as a %XX escape, the way a client that encodes everything sends it. */
const encodeAll = (text: string) =>
  [...Buffer.from(text)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('')

describe('percent-encoded paths, every group, through real HTTP', () => {
  // A licence key with characters a client must encode in a path segment, and a `%41` that must stay
  // `%41`: decoded once, not twice.
  const licenceKey = 'k3y/with space+ü%41;,'
  let svc: Running
  beforeAll(async () => {
    svc = await runService({ squares: [feature(square(0, 0, 1, 1), { name: 'a' })] }, { licenceKey })
  })
  afterAll(() => svc.stop())

  const get = (path: string) =>
    fetch(`http://127.0.0.1:${svc.service.port}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } })

  it('the distance matrix and the predictive matrix take the encoded licence key (routing)', async () => {
    for (const path of [
      `/advancedmaps/${encodeURIComponent(licenceKey)}/distance_matrix/driving/11.97,57.70;11.98,57.71`,
      `/advancedmaps/${encodeAll(licenceKey)}/distance_matrix_eta/driving/11.97,57.70;11.98,57.71`,
      `/advancedmaps/${encodeAll(licenceKey)}/distance_matrix_predictive/driving/11.97,57.70;11.98,57.71`,
    ]) {
      const response = await fetch(`http://127.0.0.1:${svc.service.port}${path}`)
      expect(response.status, path).toBe(200)
      expect(await response.text(), path).not.toContain('k3y')
    }
    // Decoded once: the key's own `%41` is not read as `A`, and the key decoded twice is wrong.
    const twice = encodeURIComponent(decodeURIComponent(encodeURIComponent(licenceKey)).replace('%41', 'A'))
    expect((await get(`/advancedmaps/${twice}/distance_matrix/driving/11.97,57.70;11.98,57.71`)).status).toBe(
      401,
    )
    expect(
      (await get(`/advancedmaps/${encodeURIComponent(licenceKey)}%ZZ/distance_matrix/driving/1,1;2,2`))
        .status,
    ).toBe(400)
  }, 60_000)

  it('the bearer groups answer an encoded path as the plain one (gis, places, telematics, vision)', async () => {
    const pairs: Array<[plain: string, encoded: string]> = [
      ['/mgis/v2/getLayersList', `/mgis/v2/${encodeAll('getLayersList')}`],
      ['/local/datasets/squares/features', `/local/datasets/${encodeAll('squares')}/features`],
      ['/atlas/api/places/search/json?query=goa', `/atlas/api/places/${encodeAll('search')}/json?query=goa`],
    ]
    for (const [plain, encoded] of pairs) {
      const a = await get(plain)
      const b = await get(encoded)
      expect(a.status, plain).toBe(200)
      expect(b.status, encoded).toBe(200)
      expect(await b.text(), encoded).toBe(await a.text())
    }
    // The fleet moves between two requests: the same devices, not the same positions.
    const devices = async (path: string) => {
      const response = await get(path)
      expect(response.status, path).toBe(200)
      return ((await response.json()) as { data: Array<{ id: number }> }).data.map((d) => d.id)
    }
    expect(await devices(`/${encodeAll('telematics')}/${encodeAll('devices')}`)).toEqual(
      await devices('/telematics/devices'),
    )
    // Vision takes a POST: the encoded path reaches the route, which names the missing file.
    const blur = async (path: string) => {
      const response = await fetch(`http://127.0.0.1:${svc.service.port}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}` },
        body: new FormData(),
      })
      return { status: response.status, body: await response.json() }
    }
    const plainBlur = await blur('/aiml/license_plate_blur_pano')
    expect(plainBlur.status).toBe(400)
    expect(await blur(`/aiml/${encodeAll('license_plate_blur_pano')}`)).toEqual(plainBlur)
  })
})

describe('createRouter', () => {
  let server: Server
  let origin: string
  const seen: Array<Record<string, string>> = []
  const routes: Route[] = [
    {
      method: 'GET',
      path: '/advancedmaps/:key/:resource/:profile/:positions',
      auth: licenceKeySegment('key'),
      body: 'none',
      handle: async ({ params }) => {
        seen.push({ ...params })
        return { status: 200, body: { ok: true } }
      },
    },
    {
      method: 'POST',
      path: '/telematics/alarm',
      auth: BEARER,
      body: 'json-or-form',
      handle: async ({ body }) => ({ status: 201, body }),
    },
  ]
  beforeAll(async () => {
    const dispatch = createRouter(routes, {
      groups: GROUP_PREFIXES,
      secrets: { token: 't0k', licenceKey: 'k3y' },
      entitlements: { vision: false },
      maxBodyBytes: 1024,
    })
    server = createServer((req, res) => void dispatch(req, res))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('matches named segments, decoded, and takes the licence key from its segment', async () => {
    const r = await fetch(`${origin}/advancedmaps/k3y/distance_matrix/driving/77.1%2C28.6;Ab12Cd`)
    expect(r.status).toBe(200)
    expect(seen.at(-1)).toEqual({
      key: 'k3y',
      resource: 'distance_matrix',
      profile: 'driving',
      positions: '77.1,28.6;Ab12Cd',
    })
    expect((await fetch(`${origin}/advancedmaps/wrong/distance_matrix/driving/77,28`)).status).toBe(401)
    // A path shorter than the pattern is no match (404 once the key is right).
    expect((await fetch(`${origin}/advancedmaps/k3y/distance_matrix`)).status).toBe(404)
  })

  it('reads JSON, urlencoded and multipart form bodies for json-or-form routes', async () => {
    const headers = { authorization: 'Bearer t0k' }
    const json = await fetch(`${origin}/telematics/alarm`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ alarmType: 22, deviceId: [1] }),
    })
    expect(await json.json()).toEqual({ alarmType: 22, deviceId: [1] })
    const urlencoded = await fetch(`${origin}/telematics/alarm`, {
      method: 'POST',
      headers,
      body: new URLSearchParams([
        ['alarmType', '22'],
        ['deviceId', '1'],
        ['deviceId', '2'],
      ]),
    })
    expect(await urlencoded.json()).toEqual({ alarmType: '22', deviceId: ['1', '2'] })
    const form = new FormData()
    form.append('alarmType', '21')
    form.append('type', '2')
    const multipart = await fetch(`${origin}/telematics/alarm`, { method: 'POST', headers, body: form })
    expect(await multipart.json()).toEqual({ alarmType: '21', type: '2' })
    const big = await fetch(`${origin}/telematics/alarm`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ pad: 'x'.repeat(2048) }),
    })
    expect(big.status).toBe(413)
  })

  it('501 for a group with no routes (after its credential), 403 for a group not entitled', async () => {
    const r = await fetch(`${origin}/atlas/api/places/woodpecker?address=x`, {
      headers: { authorization: 'Bearer t0k' },
    })
    expect(r.status).toBe(501)
    expect(((await r.json()) as { group: string }).group).toBe('places')
    expect((await fetch(`${origin}/atlas/api/places/woodpecker`)).status).toBe(401)
    expect((await fetch(`${origin}/aiml/x`, { headers: { authorization: 'Bearer t0k' } })).status).toBe(403)
  })
})
