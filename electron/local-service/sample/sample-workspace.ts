import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { importFile } from '../import/import-dataset'
import type { DatasetManifest, Workspace } from '../workspace/workspace'

/** The sample datasets created on first start (data files built by scripts/build-sample-data.ts). */
export const SAMPLE_DATASETS: ReadonlyArray<{ name: string; file: string; source: string }> = [
  { name: 'india_states', file: 'india-states.geojson.gz', source: 'Natural Earth admin-1 (public domain)' },
  {
    name: 'india_cities',
    file: 'india-cities.geojson.gz',
    source: 'GeoNames cities ≥ 1000 people (CC BY 4.0)',
  },
  {
    name: 'india_city_links',
    file: 'india-city-links.geojson.gz',
    source: 'Geodesic links between the 50 largest cities (derived from GeoNames, CC BY 4.0)',
  },
]

/**
 * Where the sample files are: `GEO_ANALYST_SAMPLE_DIR`, else `resources/sample` found by walking up from this
 * module (source tree and built output both sit below the project root).
 */
export function resolveSampleDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.GEO_ANALYST_SAMPLE_DIR) return path.resolve(env.GEO_ANALYST_SAMPLE_DIR)
  let dir = path.dirname(fileURLToPath(import.meta.url))
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, 'resources', 'sample')
    if (existsSync(path.join(candidate, SAMPLE_DATASETS[0]!.file))) return candidate
    dir = path.dirname(dir)
  }
  return undefined
}

/** Import the sample datasets into an empty workspace. */
export async function createSampleWorkspace(
  workspace: Workspace,
  sampleDir: string,
): Promise<DatasetManifest[]> {
  const out: DatasetManifest[] = []
  for (const sample of SAMPLE_DATASETS) {
    const manifest = await importFile(workspace, path.join(sampleDir, sample.file), {
      name: sample.name,
      displayName: sample.source,
    })
    out.push(manifest)
  }
  return out
}
