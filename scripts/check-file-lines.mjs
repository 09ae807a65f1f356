// `npm run check:lines`: no product file past 600 lines, no Pinia store past 250 (issue 28: split by stage,
// composables for the parts). Product files are electron/, src/ and shared/ (.ts, .vue, .mjs); generated and
// declaration files are not counted. Prints each file over its limit and exits 1 when there is one;
// `--json` prints them as JSON.
import { readFileSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'

export const FILE_LIMIT = 600
export const STORE_LIMIT = 250

const root = path.resolve(import.meta.dirname, '..')

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) walk(full, out)
    else if (/\.(ts|vue|mjs)$/.test(name) && !name.endsWith('.d.ts')) out.push(full)
  }
  return out
}

/** Every product file over its limit: `{ file, lines, limit, kind }`, paths relative to `base`. */
export function overLimit(base = root) {
  const found = []
  for (const top of ['electron', 'src', 'shared']) {
    for (const file of walk(path.join(base, top), [])) {
      const text = readFileSync(file, 'utf8')
      const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
      const store = /\bdefineStore\(/.test(text)
      const limit = store ? STORE_LIMIT : FILE_LIMIT
      if (lines > limit)
        found.push({ file: path.relative(base, file), lines, limit, kind: store ? 'store' : 'file' })
    }
  }
  return found.sort((a, b) => b.lines - a.lines)
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const found = overLimit()
  if (process.argv.includes('--json')) console.log(JSON.stringify(found, null, 2))
  else if (found.length === 0)
    console.log(`check:lines: no file over ${FILE_LIMIT} lines, no store over ${STORE_LIMIT}`)
  else
    for (const f of found)
      console.error(
        `${f.file}: ${f.lines} lines, over the ${f.kind === 'store' ? 'store' : 'file'} limit of ${f.limit} — split it by stage`,
      )
  process.exit(found.length === 0 ? 0 : 1)
}
