import { promises as fs } from 'node:fs'
import { GeoFailure } from '../../base/geo-failure'
import type { CliCommand } from '../context'

/** `geo-analyst project …`: the app's projects (the layer list, styles, drawings and view). */
export const mapCommands: CliCommand[] = [
  {
    name: 'project list',
    summary: 'List the saved projects, newest first, and the last one opened or saved',
    usage: 'project list [--json]',
    async run(ctx) {
      const listed = await ctx.invoke('project.list', {})
      const human = listed.projects.length
        ? listed.projects
            .map((p) => `${p.name === listed.last ? '*' : ' '} ${p.name}  ${p.savedAt}  ${p.bytes} bytes`)
            .join('\n')
        : 'No saved projects.'
      ctx.print(listed, human)
    },
  },
  {
    name: 'project check',
    summary: 'Check a project file: its version and schema, and what it holds',
    usage: 'project check FILE [--json]',
    async run(ctx, args) {
      const file = args.positionals[0]
      if (!file) throw new GeoFailure('validation', 'project check needs a FILE', { field: 'file' })
      // The project's schemas are loaded when a project is checked (a chunk of the built CLI).
      const { MAX_PROJECT_BYTES, readProject } = await import('../../contract/map/project')
      const stat = await fs.stat(file).catch(() => null)
      if (!stat?.isFile()) throw new GeoFailure('not-found', `${file}: no such file`, { field: 'file' })
      if (stat.size > MAX_PROJECT_BYTES)
        throw new GeoFailure('validation', `${file} is larger than ${MAX_PROJECT_BYTES} bytes`, {
          field: 'file',
        })
      const reading = readProject(await fs.readFile(file, 'utf8'), file)
      if (!reading.ok)
        throw new GeoFailure(
          'validation',
          `${reading.message}${reading.detail ? ` (${reading.detail})` : ''}`,
          {
            field: 'file',
          },
        )
      const p = reading.project
      const human = [
        `${file}: project format ${p.version}, "${p.title || 'untitled'}", saved ${p.savedAt}`,
        `view: ${p.view.center[0].toFixed(4)}, ${p.view.center[1].toFixed(4)} at zoom ${p.view.zoom.toFixed(1)}`,
        ...p.layers.map(
          (l) =>
            `  ${l.title} (${l.area} ${l.kind}${l.ref ? ` ${l.ref}` : ''})${l.visible ? '' : ' hidden'}, opacity ${Math.round(l.opacity * 100)}%${l.style ? `, ${l.style.symbol.kind}` : ''}`,
        ),
      ].join('\n')
      ctx.print({ ok: true, project: p }, human)
    },
  },
]
