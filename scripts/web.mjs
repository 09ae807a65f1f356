// `npm run web [-- --port N]`: build what is missing or stale, then start the browser host.
import { spawnSync } from 'node:child_process'
import { ensureBuilt } from './ensure-built.mjs'

ensureBuilt()
const result = spawnSync(process.execPath, ['out/web/main.mjs', ...process.argv.slice(2)], {
  stdio: 'inherit',
})
process.exit(result.status ?? 0)
