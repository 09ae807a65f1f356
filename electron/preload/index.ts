import { contextBridge, ipcRenderer, webUtils } from 'electron'
import { buildGeoApi, buildGeoEvents, buildGeoFiles } from './api'

contextBridge.exposeInMainWorld(
  'geo',
  buildGeoApi((channel, ...args) => ipcRenderer.invoke(channel, ...args)),
)
contextBridge.exposeInMainWorld(
  'geoEvents',
  buildGeoEvents((channel, listener) => {
    // The Electron event object never reaches the page; only the payload does.
    const wrapped = (_event: unknown, payload: unknown) => listener(payload)
    ipcRenderer.on(channel, wrapped)
    return () => {
      ipcRenderer.removeListener(channel, wrapped)
    }
  }),
)
contextBridge.exposeInMainWorld(
  'geoFiles',
  buildGeoFiles(
    (file) => webUtils.getPathForFile(file),
    (channel, ...args) => ipcRenderer.invoke(channel, ...args),
  ),
)
