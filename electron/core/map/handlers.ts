import path from 'node:path'
import { BINARY_EXPORT_FORMATS } from '../../contract'
import { mapOperations } from '../../contract/map/operations'
import type { CoreContext, HandlerRegistry } from '../area'
import { GeoFailure } from '../../base/geo-failure'
import { ProjectFiles } from './project-files'

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/** The map's own operations: projects in `<data dir>/projects`, and exports through the save dialog. */
export function registerMapHandlers(registry: HandlerRegistry, core: CoreContext): void {
  const { saveDialog } = core.ports
  const projects = new ProjectFiles(path.join(core.dataDir, 'projects'))

  registry.add(mapOperations, {
    'project.list': () => projects.list(),
    'project.save': ({ name, project }) => projects.save(name, project),
    'project.open': ({ name }) => projects.open(name),
    'project.last': () => projects.last(),
    'export.save': async ({ suggestedName, format, content }) => {
      if (!saveDialog) {
        throw new GeoFailure(
          'local-configuration',
          'The browser downloads exports; this host has no save dialog',
        )
      }
      let data: string | Uint8Array = content
      if (BINARY_EXPORT_FORMATS.includes(format)) {
        if (!BASE64.test(content) || content.length % 4 === 1)
          throw new GeoFailure('validation', 'export.save: content is not valid base64', { field: 'content' })
        data = Buffer.from(content, 'base64')
      }
      return { path: await saveDialog.save({ suggestedName, format, content: data }) }
    },
  })
}
