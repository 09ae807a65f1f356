import { BrowserWindow } from 'electron'
import { allowNavigation, secureWebPreferences, windowOpenDecision } from './policy'

/** The one place windows are made: every window gets the same locked-down preferences and guards. */
export function createAppWindow(options: {
  preloadPath: string
  origins: readonly string[]
  url: string
}): BrowserWindow {
  const window = new BrowserWindow({
    width: 1400,
    height: 900,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Geo Analyst',
    backgroundColor: '#f4f6f8',
    webPreferences: secureWebPreferences(options.preloadPath),
  })
  const contents = window.webContents
  contents.setWindowOpenHandler(({ url }) => windowOpenDecision(url))
  const guard = (event: { preventDefault(): void }, url: string) => {
    if (!allowNavigation(url, options.origins)) event.preventDefault()
  }
  contents.on('will-navigate', guard)
  contents.on('will-redirect', guard)
  contents.on('will-attach-webview', (event) => event.preventDefault())
  window.once('ready-to-show', () => window.show())
  void window.loadURL(options.url)
  return window
}
