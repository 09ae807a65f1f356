import { app, ipcMain, net, protocol, session, utilityProcess, type UtilityProcess } from 'electron'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { createCore } from '../core/app-core'
import { resolveConfigDir, resolveDataDir, resolveWorkspaceDir } from '../core/paths'
import { appProtocolHandler } from './app-protocol'
import { devServerPolicy } from './dev-server-policy'
import { ImportGrants } from './import-grants'
import { forwardEvent, registerFileOffers, registerOperations } from './ipc'
import { LocalServiceLauncher, type ServiceChild } from './local-service-launcher'
import {
  APP_ORIGIN,
  APP_SCHEME,
  allowPermission,
  appOrigins,
  closeBeforeQuit,
  focusExisting,
  guardEveryWebContents,
} from './policy'
import { ElectronSaveDialog } from './save-dialog'
import { createAppWindow } from './window-factory'
import { postgisCheck } from '../local-service/postgis-check'

/**
 * The Electron main process, kept thin: every decision is a tested function of `policy.ts`,
 * `app-protocol.ts`, `dev-server-policy.ts`, `import-grants.ts`, `ipc.ts` and `local-service-launcher.ts`.
 */
const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined
const origins = appOrigins(devServerUrl)
const rendererDir = path.join(import.meta.dirname, '../renderer')
const preloadPath = path.join(import.meta.dirname, '../preload/index.cjs')
const serviceEntry = path.join(import.meta.dirname, 'local-service.js')
let mainWindow: Electron.BrowserWindow | null = null

// Every renderer sandboxed, whatever a window's options say.
app.enableSandbox()

// One instance owns the workspace: a second one brings the first forward and ends.
if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ])
  app.on('second-instance', () => focusExisting(mainWindow))
  // Every web contents, including ones the window factory did not make.
  guardEveryWebContents(app, origins)
  app.on('window-all-closed', () => app.quit())
  void app
    .whenReady()
    .then(start)
    .catch((error: Error) => {
      console.error(`Geo Analyst did not start: ${error.message}`)
      app.exit(1)
    })
}

async function start(): Promise<void> {
  // The local service runs in a utility process: none of its routes on this process's thread.
  const localService = new LocalServiceLauncher({
    // A PostGIS workspace's password reaches the service only through its environment (PGPASSWORD).
    fork: (env) =>
      serviceChild(
        utilityProcess.fork(serviceEntry, [], {
          serviceName: 'Geo Analyst local service',
          ...(env ? { env: { ...process.env, ...env } } : {}),
        }),
      ),
    service: {
      workspaceDir: resolveWorkspaceDir(),
      sampleDir: app.isPackaged ? path.join(process.resourcesPath, 'resources', 'sample') : undefined,
    },
  })
  const saveDialog = new ElectronSaveDialog()
  // Imports read files the user chose or dropped, by grant (import-grants.ts), never by a page's path.
  const importGrants = new ImportGrants()
  const core = await createCore({
    configDir: resolveConfigDir({ flag: configDirFromArgv(process.argv) }),
    dataDir: resolveDataDir(),
    ports: { saveDialog, importFiles: importGrants, postgisCheck: postgisCheck() },
    host: 'electron',
    version: app.getVersion(),
    startLocalService: (database) => localService.start(database),
  })
  app.on(
    'before-quit',
    closeBeforeQuit(
      () => core.close(),
      () => app.quit(),
    ),
  )
  const tileUrls = async () => [(await core.settings.view()).preferences.basemap.xyzUrl]

  protocol.handle(
    APP_SCHEME,
    appProtocolHandler({
      rendererDir,
      join: path.join,
      readText: (file) => readFile(file, 'utf8'),
      fetchFile: (file) => net.fetch(pathToFileURL(file).toString()),
      tileUrls,
    }),
  )
  const ses = session.defaultSession
  ses.setPermissionRequestHandler((contents, permission, callback) =>
    callback(allowPermission(permission, contents.getURL(), origins)),
  )
  ses.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    allowPermission(permission, requestingOrigin, origins),
  )
  if (devServerUrl) {
    // The dev server's page gets the built page's policy: styles by this run's nonce, no 'unsafe-inline'.
    const devServer = devServerPolicy({ devServerUrl, env: process.env, tileUrls })
    ses.webRequest.onHeadersReceived((details, callback) => {
      void devServer
        .headers(details.url, details.responseHeaders)
        .then((responseHeaders) => callback({ responseHeaders }))
    })
  }

  // An unreadable settings file is logged here and shown in the window's banner (the view's notice).
  core.settings.onRecovered((notice) => console.error(notice))
  await core.settings.view()
  // The Local profile works offline from the first launch; a failure leaves remote profiles usable.
  core
    .ensureLocalService()
    .catch((error: Error) => console.error(`Local service did not start: ${error.message}`))
  registerOperations(ipcMain, core.call, origins)
  registerFileOffers(ipcMain, (offered) => importGrants.offer(offered), origins)

  const window = createAppWindow({ preloadPath, url: devServerUrl ?? `${APP_ORIGIN}/index.html` })
  mainWindow = window
  saveDialog.parent = window
  core.events.subscribe((name, payload) => {
    if (!window.isDestroyed())
      forwardEvent((channel, p) => window.webContents.send(channel, p), name, payload)
  })
}

function configDirFromArgv(argv: readonly string[]): string | undefined {
  const index = argv.indexOf('--config-dir')
  return index >= 0
    ? argv[index + 1]
    : argv.find((a) => a.startsWith('--config-dir='))?.slice('--config-dir='.length)
}

/** Electron's utility process as the launcher sees it. */
function serviceChild(child: UtilityProcess): ServiceChild {
  return {
    postMessage: (request) => child.postMessage(request),
    onMessage: (listener) => void child.on('message', listener),
    onExit: (listener) => void child.once('exit', (code) => listener(code)),
    kill: () => void child.kill(),
  }
}
