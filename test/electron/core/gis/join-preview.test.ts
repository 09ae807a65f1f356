import { describe, expect, it } from 'vitest'
import type { RequestPreview } from '../../../../electron/contract'
import { createCore } from '../../../../electron/core/app-core'
import { MemorySecretStore } from '../../../../electron/core/secrets/memory-secret-store'
import { RequestHistory } from '../../../../electron/core/workspace/request-history'
import { startLocalService } from '../../../../electron/local-service'
import { fakeUrls } from '../../../support/fake-provider'
import { useTempDirs } from '../../../support/temp-dir'

const tempDir = useTempDirs()
const CANARY = 'canary-Tok3n-7f3e9a1b2c'
const BASE = 'http://127.0.0.1:9'

const body = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { note: `pasted ${CANARY} by mistake` },
      geometry: { type: 'Point', coordinates: [77.2, 28.6] },
    },
  ],
}

const params = {
  queryType: 'spatialOperation',
  datasetSource: 'india_cities',
  operator: 'DWithin',
  distance: 5000,
  sourceProperty: 'geom',
  selectionParamSource: 'name,population',
  userGeom: true,
}

async function remoteCore() {
  const dataDir = tempDir()
  const core = await createCore({
    configDir: tempDir(),
    dataDir,
    host: 'web',
    version: '0',
    secretStore: new MemorySecretStore(),
  })
  await core.call('settings.saveProfile', { name: 'Cloud', urls: fakeUrls(BASE) })
  await core.call('settings.chooseProfile', { name: 'Cloud' })
  await core.call('secrets.set', { name: 'token.gis', value: CANARY })
  return { core, dataDir }
}

describe('gis.previewJoin', () => {
  it('shows the exact request with the query in order, and no credential anywhere (canary)', async () => {
    const { core, dataDir } = await remoteCore()
    const result = await core.call('gis.previewJoin', { params, body })
    expect(result.ok).toBe(true)
    const preview = (result as { value: RequestPreview }).value
    const everything = JSON.stringify(preview)
    expect(everything.split(CANARY).length - 1).toBe(0)
    expect(everything.split(encodeURIComponent(CANARY)).length - 1).toBe(0)
    expect(preview.method).toBe('POST')
    expect(preview.url).toBe(
      `${BASE}/mgis/query_apply/join?queryType=spatialOperation&datasetSource=india_cities&operator=DWithin` +
        `&sourceProperty=geom&selectionParamSource=name%2Cpopulation&userGeom=true&distance=5000`,
    )
    expect(preview.query).toContainEqual(['distance', '5000'])
    expect(preview.query).toContainEqual(['selectionParamSource', 'name,population'])
    expect(preview.headers).toContainEqual(['Authorization', 'Bearer [REDACTED]'])
    expect(preview.headers).toContainEqual(['Content-Type', 'application/json'])
    expect(JSON.parse(preview.body ?? '')).toEqual({
      ...body,
      features: [{ ...body.features[0], properties: { note: 'pasted [REDACTED] by mistake' } }],
    })
    expect(preview.curl).toMatch(/^curl -sS -X POST /)
    expect(preview.curl).toContain("'Authorization: Bearer [REDACTED]'")
    expect(preview.curl).toContain(`'${preview.url}'`)
    expect(preview.cli).toBe(
      'geo-analyst call gis.join queryType=spatialOperation datasetSource=india_cities operator=DWithin ' +
        'distance=5000 sourceProperty=geom selectionParamSource=name,population userGeom=true --body body.geojson',
    )
    // Nothing was sent: the preview never reaches the provider.
    expect(await new RequestHistory(dataDir, core.redactor).list()).toEqual([])
  })

  it('names the field a request lacks', async () => {
    const { core } = await remoteCore()
    const { distance: _distance, ...withoutDistance } = params
    const result = await core.call('gis.previewJoin', { params: withoutDistance, body })
    expect(result).toMatchObject({ ok: false, error: { failureClass: 'validation', field: 'distance' } })
  })

  it('hides the local service token on the Local profile', async () => {
    let token = ''
    const workspaceDir = tempDir()
    const core = await createCore({
      configDir: tempDir(),
      dataDir: tempDir(),
      host: 'web',
      version: '0',
      secretStore: new MemorySecretStore(),
      startLocalService: async () => {
        const service = await startLocalService({ workspaceDir, sampleData: false })
        token = service.token
        return service
      },
    })
    try {
      const result = await core.call('gis.previewJoin', { params, body })
      expect(result.ok).toBe(true)
      const preview = (result as { value: RequestPreview }).value
      expect(token.length).toBeGreaterThan(8)
      expect(JSON.stringify(preview)).not.toContain(token)
      expect(preview.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mgis\/query_apply\/join\?queryType=/)
    } finally {
      await core.close()
    }
  })
})
