import path from 'node:path'
import { parseArgs } from '../cli/args'
import { createCore } from '../core/app-core'
import { resolveConfigDir, resolveDataDir, resolveWorkspaceDir } from '../core/paths'
import { startLocalService } from '../local-service'
import { isDatabaseWorkspace } from '../local-service/postgis/workspace'
import { startWebHost } from './server'
import { UploadStore } from './uploads'
import { version } from '../../package.json'
import { postgisCheck } from '../local-service/postgis-check'

/** `npm run web [-- --port N] [--config-dir DIR]`: the app in a browser, served on 127.0.0.1. */
const args = parseArgs(process.argv.slice(2), {
  port: 'string',
  'config-dir': 'string',
  'static-dir': 'string',
})
const port = typeof args.flags.port === 'string' ? Number(args.flags.port) : 0
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`geo-analyst web: --port must be an integer 0–65535, got ${String(args.flags.port)}`)
  process.exit(2)
}
const staticDir =
  typeof args.flags['static-dir'] === 'string'
    ? path.resolve(args.flags['static-dir'])
    : path.resolve(import.meta.dirname, '../renderer')
// GEO_ANALYST_WORKSPACE may name a PostGIS database (postgresql://…, as `geo-analyst serve` takes it): the
// service's dataset list and vector tiles come from it; the default folder workspace serves the rest.
const databaseUri = isDatabaseWorkspace(process.env.GEO_ANALYST_WORKSPACE)
  ? process.env.GEO_ANALYST_WORKSPACE
  : undefined
const workspaceDir = resolveWorkspaceDir({
  env: databaseUri ? { ...process.env, GEO_ANALYST_WORKSPACE: '' } : process.env,
})
// Files for import arrive as uploads (POST /api/upload) and are imported by reference.
const uploads = new UploadStore()
const core = await createCore({
  configDir: resolveConfigDir({
    flag: typeof args.flags['config-dir'] === 'string' ? args.flags['config-dir'] : undefined,
  }),
  host: 'web',
  version,
  // A PostGIS workspace profile, when active, names the database (its password for the service only, in
  // the service's env option); otherwise GEO_ANALYST_WORKSPACE's database or the folder.
  startLocalService: (database) =>
    startLocalService({
      workspaceDir,
      ...(database
        ? { databaseUri: database.databaseUri, env: { ...process.env, ...database.env } }
        : databaseUri
          ? { databaseUri }
          : {}),
    }),
  dataDir: resolveDataDir(),
  // No save dialog: the browser downloads exports, so export.save answers local-configuration here.
  ports: { importFiles: uploads, postgisCheck: postgisCheck() },
})
// An unreadable settings file is met now, not at the page's first request, and said here once; the
// page shows the same notice in its banner.
core.settings.onRecovered((notice) => console.error(`geo-analyst web: ${notice}`))
await core.settings.view()
try {
  const local = await core.ensureLocalService()
  if (local)
    console.log(
      `Local service: ${new URL(local.urls.mgis_url).origin} (workspace ${databaseUri ? 'a PostGIS database' : workspaceDir})`,
    )
} catch (error) {
  console.error(
    `geo-analyst web: the local service did not start (${(error as Error).message}); remote profiles still work.`,
  )
}
const host = await startWebHost({
  call: core.call,
  events: core.events,
  staticDir,
  port,
  uploads,
  tileUrls: async () => [(await core.settings.view()).preferences.basemap.xyzUrl],
})
console.log(
  `Geo Analyst is running. Open this URL in a browser (it carries this run's session secret):\n\n  ${host.openUrl}\n`,
)
const stop = () => void Promise.all([host.close(), core.close(), uploads.close()]).then(() => process.exit(0))
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
