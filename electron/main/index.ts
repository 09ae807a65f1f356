import { app, ipcMain, net, protocol, session } from 'electron'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { createCore } from '../core/app-core'
import { buildCsp } from '../core/csp'
import { resolveConfigDir, resolveDataDir, resolveWorkspaceDir } from '../core/paths'
import { startLocalService } from '../local-service'
import { forwardEvent, registerOperations } from './ipc'
import { ElectronSaveDialog } from './save-dialog'
import {
  APP_ORIGIN,
  APP_SCHEME,
  allowNavigation,
  allowPermission,
  appFilePath,
  appOrigins,
  windowOpenDecision,
} from './policy'
import { createAppWindow } from './window-factory'

const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined
const origins = appOrigins(devServerUrl)
const rendererDir = path.join(import.meta.dirname, '../renderer')
const preloadPath = path.join(import.meta.dirname, '../preload/index.cjs')

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
    const file = appFilePath(request.url, rendererDir, path.join)
    if (!file) return new Response('Not found', { status: 404 })
    const response = await net.fetch(pathToFileURL(file).toString())
    const headers = new Headers(response.headers)
    headers.set('Content-Security-Policy', csp)
    headers.set('X-Content-Type-Options', 'nosniff')
    return new Response(response.body, { status: response.status, headers })
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

  const saveDialog = new ElectronSaveDialog()
  const core = await createCore({
    configDir: resolveConfigDir({ flag: configDirFromArgv(process.argv) }),
    dataDir: resolveDataDir(),
    ports: { saveDialog },
    host: 'electron',
    version: app.getVersion(),
    startLocalService: () =>
      startLocalService({
        workspaceDir: resolveWorkspaceDir(),
        sampleDir: app.isPackaged ? path.join(process.resourcesPath, 'resources', 'sample') : undefined,
      }),
  })
  // The Local profile works offline from the first launch; a failure leaves remote profiles usable.
  core
    .ensureLocalService()
    .catch((error: Error) => console.error(`Local service did not start: ${error.message}`))
  app.on('before-quit', () => void core.close())
  registerOperations(ipcMain, core.call, origins)

  const window = createAppWindow({ preloadPath, origins, url: devServerUrl ?? `${APP_ORIGIN}/index.html` })
  saveDialog.parent = window
  core.events.subscribe((name, payload) => {
    if (!window.isDestroyed())
      forwardEvent((channel, p) => window.webContents.send(channel, p), name, payload)
  })
})

app.on('window-all-closed', () => app.quit())
