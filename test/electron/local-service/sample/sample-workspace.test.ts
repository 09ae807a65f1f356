import { rm } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { startLocalService } from '../../../../electron/local-service/index'
import { Workspace } from '../../../../electron/local-service/workspace/workspace'
import { tempDir, TOKEN } from '../helpers'

describe('first-start sample workspace', () => {
  it('an empty workspace gets the Indian states, cities and city links; a join on them works over HTTP', async () => {
    const dir = await tempDir()
    const service = await startLocalService({ workspaceDir: dir, token: TOKEN })
    try {
      expect(service.sampleCreated).toEqual(['india_states', 'india_cities', 'india_city_links'])
      const r = await fetch(`${service.urls.mgis_v2_url}/getLayersList`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      })
      const data = (
        (await r.json()) as { data: Array<{ layername: string; geometrytype: string; featureCount: number }> }
      ).data
      const byName = Object.fromEntries(data.map((d) => [d.layername, d]))
      expect(byName.india_states!.featureCount).toBeGreaterThanOrEqual(36)
      expect(byName.india_cities!.geometrytype).toBe('POINT')
      expect(byName.india_cities!.featureCount).toBeGreaterThan(3000)
      expect(byName.india_city_links!.geometrytype).toBe('LINESTRING')
      const q = new URLSearchParams({
        queryType: 'spatialOperation',
        datasetSource: 'india_cities',
        datasetRef: 'india_states',
        operator: 'Within',
        sourceProperty: 'geom',
        selectionParamSource: 'name',
        selectionParamRef: 'name',
      })
      const join = await fetch(`${service.urls.mgis_url}/query_apply/join?${q}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}` },
      })
      const rows = ((await join.json()) as { result: Array<{ prop1: string; prop2: string }> }).result
      expect(rows).toContainEqual({ prop1: 'Pune', prop2: 'Maharashtra' })
      expect(rows).toContainEqual({ prop1: 'Bengaluru', prop2: 'Karnataka' })
    } finally {
      await service.close()
    }
    // A second start over the same folder adds nothing.
    const again = await startLocalService({ workspaceDir: dir, token: TOKEN })
    expect(again.sampleCreated).toEqual([])
    await again.close()
    expect((await new Workspace(dir).list()).length).toBe(3)
    await rm(dir, { recursive: true, force: true })
  })
})
