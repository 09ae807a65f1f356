import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const GAZETTEER_FILE = path.join('resources', 'data', 'places', 'gazetteer.bin')

/**
 * Where the gazetteer is: `GEO_ANALYST_GAZETTEER`, else `resources/data/places/gazetteer.bin` found by walking
 * up from this module (source tree, built output and the packaged app's resources all sit below a folder
 * holding `resources/`).
 */
export function resolveGazetteerFile(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.GEO_ANALYST_GAZETTEER) return path.resolve(env.GEO_ANALYST_GAZETTEER)
  let dir = path.dirname(fileURLToPath(import.meta.url))
  for (let i = 0; i < 8; i++) {
    const candidate = path.join(dir, GAZETTEER_FILE)
    if (existsSync(candidate)) return candidate
    dir = path.dirname(dir)
  }
  const resources = (process as { resourcesPath?: string }).resourcesPath
  if (resources) {
    const candidate = path.join(resources, GAZETTEER_FILE)
    if (existsSync(candidate)) return candidate
  }
  return undefined
}
