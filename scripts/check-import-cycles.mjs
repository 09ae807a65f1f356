// `npm run check:cycles`: the product's import graph has no cycle.
//
// Reads every product module (electron/, src/, shared/: .ts and .vue), resolves its relative imports the way
// TypeScript does (extensions, index files; type-only imports count too: a cycle of types is still a knot a
// reader has to untie), and prints every strongly connected component of more than one module, or a module
// importing itself. Exits 1 when there is one. `--json` prints the cycles as JSON.
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'

const root = path.resolve(import.meta.dirname, '..')
const roots = ['electron', 'src', 'shared']
const exts = ['.ts', '.vue', '.mts', '.d.ts']

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) walk(full, out)
    else if ((name.endsWith('.ts') || name.endsWith('.vue')) && !name.endsWith('.d.ts')) out.push(full)
  }
  return out
}

function scriptOf(file) {
  const text = readFileSync(file, 'utf8')
  if (!file.endsWith('.vue')) return text
  return [...text.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n')
}

function specifiers(file) {
  const source = ts.createSourceFile(file, scriptOf(file), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS)
  const found = []
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text)
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      // A dynamic import is a deliberate lazy edge (a chunk loaded later), not a knot in the load order.
      return
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

function resolve(from, spec) {
  let base
  if (spec.startsWith('.')) base = path.resolve(path.dirname(from), spec)
  else if (spec.startsWith('@contract/')) base = path.join(root, 'electron/contract', spec.slice(10))
  else if (spec === '@contract') base = path.join(root, 'electron/contract')
  else return undefined
  const stripped = base.replace(/\.(m?js)$/, '')
  const candidates = [
    base,
    ...exts.map((e) => stripped + e),
    ...exts.map((e) => path.join(base, 'index' + e)),
  ]
  return candidates.find((c) => existsSync(c) && statSync(c).isFile())
}

/** Tarjan's strongly connected components over the graph. */
function cycles(graph) {
  let index = 0
  const stack = []
  const on = new Set()
  const idx = new Map()
  const low = new Map()
  const out = []
  const strong = (v) => {
    idx.set(v, index)
    low.set(v, index++)
    stack.push(v)
    on.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w)
        low.set(v, Math.min(low.get(v), low.get(w)))
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)))
    }
    if (low.get(v) === idx.get(v)) {
      const component = []
      let w
      do {
        w = stack.pop()
        on.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1 || (graph.get(v) ?? new Set()).has(v)) out.push(component.sort())
    }
  }
  for (const v of graph.keys()) if (!idx.has(v)) strong(v)
  return out
}

export function importGraph(files) {
  const graph = new Map()
  for (const file of files) {
    const targets = new Set()
    for (const spec of specifiers(file)) {
      const target = resolve(file, spec)
      if (target) targets.add(target)
    }
    graph.set(file, targets)
  }
  return graph
}

export function findCycles(files) {
  return cycles(importGraph(files)).map((c) => c.map((f) => path.relative(root, f)))
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = roots.flatMap((r) => walk(path.join(root, r), []))
  const found = findCycles(files)
  if (process.argv.includes('--json')) console.log(JSON.stringify(found, null, 2))
  else if (found.length === 0) console.log(`No import cycles among ${files.length} modules.`)
  else {
    console.error(`${found.length} import cycle(s):`)
    for (const c of found) console.error(`- ${c.length} modules: ${c.join(', ')}`)
  }
  process.exit(found.length === 0 ? 0 : 1)
}
