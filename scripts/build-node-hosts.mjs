// Bundle the Node hosts (CLI and browser host) into out/, with packages left as runtime imports.
import { build } from 'esbuild'
import { chmod } from 'node:fs/promises'

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
}

await build({
  ...common,
  entryPoints: ['electron/cli/main.ts'],
  outfile: 'out/cli/geo-analyst.mjs',
  banner: { js: '#!/usr/bin/env node' },
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
