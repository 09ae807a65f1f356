// The renderer's first load stays small, so the map paints before the panels' code arrives.
//
// Reads the built out/renderer/index.html, finds what it loads before the app runs (the entry script,
// the chunks it preloads, the stylesheets), prints raw and gzip sizes beside the lazily loaded chunks,
// and fails when the entry script, or the entry with its preloaded chunks, is 1 MB (10^6 bytes) or more.
// Run by `npm run check` after the build; `node scripts/check-renderer-size.mjs [out/renderer]`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'

export const LIMIT_BYTES = 1_000_000

/** What index.html loads before the app runs: entry script, preloaded chunks, stylesheets. */
export function firstLoad(html) {
  const attr = (tag, name) => new RegExp(`\\s${name}="([^"]+)"`).exec(tag)?.[1] ?? null
  const tags = html.match(/<(script|link)\b[^>]*>/g) ?? []
  const entry = tags
    .filter((t) => t.startsWith('<script') && attr(t, 'type') === 'module')
    .map((t) => attr(t, 'src'))
    .filter(Boolean)
  const preload = tags
    .filter((t) => t.startsWith('<link') && attr(t, 'rel') === 'modulepreload')
    .map((t) => attr(t, 'href'))
  const styles = tags
    .filter((t) => t.startsWith('<link') && attr(t, 'rel') === 'stylesheet')
    .map((t) => attr(t, 'href'))
  return { entry, preload, styles }
}

export function measure(file) {
  const bytes = readFileSync(file)
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length }
}

/** Sizes of the first load and of the rest, and the problems (empty when within the limit). */
export function checkRendererSize(outDir) {
  const html = readFileSync(path.join(outDir, 'index.html'), 'utf8')
  const { entry, preload, styles } = firstLoad(html)
  const problems = []
  if (entry.length !== 1) problems.push(`expected one entry script in index.html, found ${entry.length}`)
  const sized = (list) => list.map((href) => ({ href, ...measure(path.join(outDir, href)) }))
  const first = { entry: sized(entry), preload: sized(preload), styles: sized(styles) }
  const loaded = new Set([...entry, ...preload, ...styles].map((href) => path.basename(href)))
  const assets = path.join(outDir, 'assets')
  const lazy = readdirSync(assets)
    .filter((name) => /\.(js|css)$/.test(name) && !loaded.has(name))
    .map((name) => ({ href: `./assets/${name}`, ...measure(path.join(assets, name)) }))
  const sum = (list, key) => list.reduce((total, item) => total + item[key], 0)
  const entryRaw = sum(first.entry, 'raw')
  const firstJsRaw = entryRaw + sum(first.preload, 'raw')
  if (entryRaw >= LIMIT_BYTES)
    problems.push(
      `the entry chunk is ${entryRaw.toLocaleString('en-US')} bytes, over ${LIMIT_BYTES.toLocaleString('en-US')}`,
    )
  if (firstJsRaw >= LIMIT_BYTES)
    problems.push(
      `the entry with its preloaded chunks is ${firstJsRaw.toLocaleString('en-US')} bytes, over ${LIMIT_BYTES.toLocaleString('en-US')}`,
    )
  return { first, lazy, entryRaw, firstJsRaw, problems, sum }
}

function kb(n) {
  return `${(n / 1000).toFixed(1)} kB`
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const outDir = process.argv[2] ?? 'out/renderer'
  if (!existsSync(path.join(outDir, 'index.html')) || !statSync(path.join(outDir, 'assets')).isDirectory()) {
    console.error(`check-renderer-size: no built renderer in ${outDir}; run npm run build:renderer first`)
    process.exit(1)
  }
  const { first, lazy, problems, sum } = checkRendererSize(outDir)
  const rows = [
    ...first.entry.map((f) => ['entry', f]),
    ...first.preload.map((f) => ['preloaded', f]),
    ...first.styles.map((f) => ['stylesheet', f]),
  ]
  console.log('Renderer first load (before the app runs):')
  for (const [kind, f] of rows)
    console.log(`  ${kind.padEnd(11)} ${f.href.padEnd(42)} ${kb(f.raw).padStart(10)}  gzip ${kb(f.gzip)}`)
  console.log(
    `Lazily loaded: ${lazy.length} files, ${kb(sum(lazy, 'raw'))} (gzip ${kb(sum(lazy, 'gzip'))}); largest ${lazy
      .sort((a, b) => b.raw - a.raw)
      .slice(0, 3)
      .map((f) => `${path.basename(f.href)} ${kb(f.raw)}`)
      .join(', ')}`,
  )
  if (problems.length > 0) {
    for (const problem of problems) console.error(`check-renderer-size: ${problem}`)
    process.exit(1)
  }
  console.log(`Within the limit of ${kb(LIMIT_BYTES)} for the entry chunk.`)
}
