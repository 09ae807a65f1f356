import { app, ipcMain, net, protocol, session, utilityProcess } from 'electron'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { createCore } from '../core/app-core'
import { buildCsp } from '../core/csp'
import { resolveConfigDir, resolveDataDir, resolveWorkspaceDir } from '../core/paths'
import { createWorkspacePort } from '../local-service'
import { ImportGrants } from './import-grants'
import { forwardEvent, registerFileOffers, registerOperations } from './ipc'
import { ElectronSaveDialog } from './save-dialog'
import {
  APP_ORIGIN,
  APP_SCHEME,
  allowNavigation,
  allowPermission,
  appRequestDecision,
  appOrigins,
  windowOpenDecision,
} from './policy'
import { LocalServiceLauncher, type ServiceChild } from './local-service-launcher'
import { createAppWindow } from './window-factory'

const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined
const origins = appOrigins(devServerUrl)
const rendererDir = path.join(import.meta.dirname, '../renderer')
const preloadPath = path.join(import.meta.dirname, '../preload/index.cjs')
const serviceEntry = path.join(import.meta.dirname, 'local-service.js')

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
])

function configDirFromArgv(argv: readonly string[]): string | undefined {
  const index = argv.indexOf('--config-dir')
  return index >= 0
    ? argv[index + 1]
    : argv.find((a) => a.startsWith('--config-dir='))?.slice('--config-dir='.length)
}

app.on('web-contents-created', (_event, contents) => {
  // Defence in depth for any web contents, including ones the factory did not make.
  contents.setWindowOpenHandler(({ url }) => windowOpenDecision(url))
  contents.on('will-navigate', (event, url) => {
    if (!allowNavigation(url, origins)) event.preventDefault()
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
})

void app.whenReady().then(async () => {
  const csp = buildCsp({ devServerOrigin: devServerUrl ? new URL(devServerUrl).origin : undefined })
  protocol.handle(APP_SCHEME, async (request) => {
    const decision = appRequestDecision(request.url, rendererDir, path.join)
    if (decision.status !== 200) return new Response(null, { status: decision.status })
    try {
      const response = await net.fetch(pathToFileURL(decision.file).toString())
      const headers = new Headers(response.headers)
      headers.set('Content-Security-Policy', csp)
      headers.set('X-Content-Type-Options', 'nosniff')
      return new Response(response.body, { status: response.status, headers })
    } catch {
      return new Response(null, { status: 404 })
    }
  })
  const ses = session.defaultSession
  ses.setPermissionRequestHandler((contents, permission, callback) =>
    callback(allowPermission(permission, contents.getURL(), origins)),
  )
  ses.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    allowPermission(permission, requestingOrigin, origins),
  )
  if (devServerUrl) {
    ses.webRequest.onHeadersReceived((details, callback) =>
      callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } }),
    )
  }

  // The local service runs in a utility process: none of its routes on this process's thread.
  const localService = new LocalServiceLauncher({
    fork: () =>
      serviceChild(utilityProcess.fork(serviceEntry, [], { serviceName: 'Geo Analyst local service' })),
    service: {
      workspaceDir: resolveWorkspaceDir(),
      sampleDir: app.isPackaged ? path.join(process.resourcesPath, 'resources', 'sample') : undefined,
    },
  })
  const saveDialog = new ElectronSaveDialog()
  // Imports read files the user chose or dropped, by grant (see import-grants.ts), never by a page's path.
  const importGrants = new ImportGrants()
  const core = await createCore({
    configDir: resolveConfigDir({ flag: configDirFromArgv(process.argv) }),
    dataDir: resolveDataDir(),
    localWorkspace: createWorkspacePort(resolveWorkspaceDir()),
    saveDialog,
    importFiles: importGrants,
    host: 'electron',
    version: app.getVersion(),
    startLocalService: () => localService.start(),
  })
  // An unreadable settings file is logged here and shown in the window's banner (the view's notice).
  core.settings.onRecovered((notice) => console.error(notice))
  await core.settings.view()
  // The Local profile works offline from the first launch; a failure leaves remote profiles usable.
  core
    .ensureLocalService()
    .catch((error: Error) => console.error(`Local service did not start: ${error.message}`))
  app.on('before-quit', () => void core.close())
  registerOperations(ipcMain, core.call, origins)
  registerFileOffers(ipcMain, (offered) => importGrants.offer(offered), origins)

  const window = createAppWindow({ preloadPath, origins, url: devServerUrl ?? `${APP_ORIGIN}/index.html` })
  saveDialog.parent = window
  core.events.subscribe((name, payload) => {
    if (!window.isDestroyed())
      forwardEvent((channel, p) => window.webContents.send(channel, p), name, payload)
  })
})

app.on('window-all-closed', () => app.quit())

/** Electron's utility process as the launcher sees it. */
function serviceChild(child: Electron.UtilityProcess): ServiceChild {
  return {
    postMessage: (request) => child.postMessage(request),
    onMessage: (listener) => void child.on('message', listener),
    onExit: (listener) => void child.once('exit', (code) => listener(code)),
    kill: () => void child.kill(),
  }
}
