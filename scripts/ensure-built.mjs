// Build the renderer and the Node hosts when the build is missing or older than the sources.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'

const BUILT = [
  'out/renderer/index.html',
  'out/web/main.mjs',
  'out/web/pool-worker.js',
  'out/cli/geo-analyst.mjs',
  'out/main/local-service.js',
]
const SOURCES = ['src', 'electron', 'shared', 'resources']

function newest(dir) {
  if (!existsSync(dir)) return 0
  let latest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs)
  }
  return latest
}

export function isStale() {
  if (BUILT.some((f) => !existsSync(f))) return true
  const builtAt = Math.min(...BUILT.map((f) => statSync(f).mtimeMs))
  return Math.max(...SOURCES.map(newest)) > builtAt
}

export function ensureBuilt() {
  if (!isStale()) return
  console.log('Building the renderer and the Node hosts (sources changed since the last build)…')
  const result = spawnSync('npm', ['run', '-s', 'build:renderer'], { stdio: 'inherit' })
  if (result.status !== 0) process.exit(result.status ?? 1)
}
