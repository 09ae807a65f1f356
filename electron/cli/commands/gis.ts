import { randomUUID } from 'node:crypto'
import { promises as fs } from 'node:fs'
import type { JoinRun } from '../../contract'
import { RowTable } from '../../../shared/rows/row-table'
import { GeoFailure } from '../../base/geo-failure'
import { stringFlag } from '../args'
import type { CliCommand } from '../context'
import { parseAssignments } from './call'
import { localServiceCommands } from './local-service'
import { parseJsonText } from '../../contract/common/json-text'

/** The workspace commands of the local service, also under `gis` (the short names stay for scripts). */
const WORKSPACE_COMMANDS = ['import', 'datasets', 'export']

function table(rows: Array<Record<string, string>>, columns: string[]): string {
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => (r[c] ?? '').length)))
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd()
  return [line(columns), ...rows.map((r) => line(columns.map((c) => r[c] ?? '')))].join('\n')
}

/** `geo-analyst gis …`: the spatial-analytics area on the active profile, cloud or local alike. */
export const gisCommands: CliCommand[] = [
  {
    name: 'gis layers',
    summary: 'List the datasets of the active profile (§4.6)',
    usage: 'gis layers [--json]',
    async run(ctx) {
      const { datasets } = await ctx.invoke('gis.layers', {})
      const rows = datasets.map((d) => ({
        NAME: d.layername,
        TYPE: d.geometrytype ?? '',
        FEATURES: d.featureCount === undefined ? '' : String(d.featureCount),
        SOURCE: d.source ?? '',
      }))
      ctx.print(datasets, rows.length ? table(rows, ['NAME', 'TYPE', 'FEATURES', 'SOURCE']) : 'No datasets.')
    },
  },
  {
    name: 'gis join',
    summary: 'Run a join (§4.5) on the active profile: rows as a table, or JSON with --json',
    usage: 'gis join name=value ... [--body GEOJSON_FILE] [--json]',
    flags: { body: 'string' },
    async run(ctx, args) {
      const params = parseAssignments(args.positionals)
      const bodyFile = stringFlag(args, 'body')
      let body: unknown
      if (bodyFile) {
        try {
          body = parseJsonText(await fs.readFile(bodyFile, 'utf8'))
        } catch (error) {
          throw new GeoFailure('validation', `--body ${bodyFile}: ${(error as Error).message}`, {
            field: 'body',
          })
        }
      }
      const run: JoinRun = await ctx.invoke('gis.join', {
        runId: randomUUID(),
        params,
        ...(body !== undefined ? { body } : {}),
      })
      const names = new Map((run.columns ?? []).map((c) => [c.prop, `${c.name} (${c.table})`]))
      const { rowsJson, ...rest } = run
      const result = RowTable.read(rowsJson)
      const props = result.keys
      const rows = Array.from({ length: Math.min(50, result.length) }, (_, i) =>
        Object.fromEntries(props.map((p) => [names.get(p) ?? p, result.cell(i, p).slice(0, 40)])),
      )
      const summary = `${result.length} row${result.length === 1 ? '' : 's'}${run.partial ? ' (partial: the provider cut the result)' : ''}${run.savedDataset ? `; saved as ${run.savedDataset}` : ''} in ${Math.round(run.durationMs)} ms`
      const shown = rows.length
        ? table(
            rows,
            props.map((p) => names.get(p) ?? p),
          ) + '\n'
        : ''
      // --json: the rows as objects of strings, as the provider's values read for the table.
      ctx.print(
        { ...rest, rows: result.rows() },
        `${shown}${summary}${result.length > 50 ? ' (first 50 shown; --json for all)' : ''}`,
      )
    },
  },
  ...localServiceCommands
    .filter((c) => WORKSPACE_COMMANDS.includes(c.name))
    .map((c) => ({ ...c, name: `gis ${c.name}`, usage: `gis ${c.usage}` })),
]
