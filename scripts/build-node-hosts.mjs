// Bundle the Node hosts (CLI and browser host) into out/, with packages left as runtime imports.
import { build } from 'esbuild'
import { chmod, rm } from 'node:fs/promises'
import path from 'node:path'

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
}

// The CLI in chunks: a command loads what it runs when it runs (`geo-analyst --help` reads no database
// driver, image library or local service). The chunks sit beside the entry, as `pool-worker.js` does, so a
// module's `import.meta.url` names the same folder whichever chunk it landed in. Old chunks go first.
// Two pure-JavaScript packages a listing needs are bundled in, with what they import: zod (every command's
// contract) and node-postgres (a PostGIS workspace), each read from one chunk instead of a package's many
// files (decision 037). node-postgres's optional native and Cloudflare bindings stay outside (never loaded);
// every other package stays a runtime import: native code, WebAssembly, files read beside the package.
const BUNDLED = new Set(['zod', 'pg'])
const NEVER_BUNDLED = new Set(['pg-native', 'pg-cloudflare'])
const packageOf = (specifier) => specifier.split('/', specifier.startsWith('@') ? 2 : 1).join('/')
const packagesOutside = {
  name: 'packages-outside',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      const name = packageOf(args.path)
      // Only a bundled package's own files are read from node_modules into the build.
      const bundled = BUNDLED.has(name) || args.importer.includes(`${path.sep}node_modules${path.sep}`)
      return bundled && !NEVER_BUNDLED.has(name) ? undefined : { path: args.path, external: true }
    })
  },
}
await rm('out/cli', { recursive: true, force: true })
await build({
  ...common,
  packages: undefined, // the plugin decides
  plugins: [packagesOutside],
  entryPoints: { 'geo-analyst': 'electron/cli/main.ts' },
  outdir: 'out/cli',
  outExtension: { '.js': '.mjs' },
  splitting: true,
  chunkNames: '[name]-[hash]',
  // node-postgres is CommonJS: its `require`s of Node's modules need a `require` in each ESM chunk.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __createRequire } from 'node:module'\nconst require = __createRequire(import.meta.url)",
  },
})
await chmod('out/cli/geo-analyst.mjs', 0o755)
await build({ ...common, entryPoints: ['electron/web/main.ts'], outfile: 'out/web/main.mjs' })
// The local service's pool worker runs beside each bundle that starts the service.
for (const dir of ['out/cli', 'out/web']) {
  await build({
    ...common,
    entryPoints: ['electron/local-service/pool/worker.ts'],
    outfile: `${dir}/pool-worker.js`,
  })
}
