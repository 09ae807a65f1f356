import { BrowserWindow } from 'electron'
import { secureWebPreferences } from './policy'

/**
 * The one place windows are made: every window gets the same locked-down preferences. Its navigation,
 * window-open and webview guards are those every web contents gets when it is created (`index.ts`,
 * `guardWebContents`).
 */
export function createAppWindow(options: { preloadPath: string; url: string }): BrowserWindow {
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
  window.once('ready-to-show', () => window.show())
  void window.loadURL(options.url)
  return window
}
