import { existsSync } from 'node:fs'
import path from 'node:path'
import type { MatrixProfile, MatrixResource } from '../../contract/routing/matrix'
import { GeoFailure } from '../../base/geo-failure'
import { resolveWorkspaceDir } from '../../core/paths'
import {
  listNetworks,
  NETWORK_ID_RULE,
  networkFile,
  networkIdFromFile,
  removeNetwork,
} from '../../local-service/routing/data/networks'
import { stringFlag, type ParsedArgs } from '../args'
import type { CliCommand, CliContext } from '../context'

/** Metres as km with one decimal; seconds as h:mm. */
export function km(metres: number | null): string {
  return metres === null ? '—' : (metres / 1000).toFixed(1)
}

export function hmm(seconds: number | null): string {
  if (seconds === null) return '—'
  const minutes = Math.round(seconds / 60)
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`
}

function indexList(args: ParsedArgs, name: string): number[] | undefined {
  const text = stringFlag(args, name)
  if (text === undefined) return undefined
  if (!/^\d+(;\d+)*$/.test(text))
    throw new GeoFailure('validation', `--${name}: must be ;-separated position indexes such as 0;2`, {
      field: name,
    })
  return text.split(';').map(Number)
}

function oneOf<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  flag: string,
  fallback: T,
): T {
  if (value === undefined) return fallback
  if (!(allowed as readonly string[]).includes(value))
    throw new GeoFailure('validation', `--${flag}: must be one of ${allowed.join(', ')}`, { field: flag })
  return value as T
}

function workspaceDir(ctx: CliContext, args: ParsedArgs): string {
  return resolveWorkspaceDir({ flag: stringFlag(args, 'workspace'), env: ctx.env })
}

/** `geo-analyst routing …`: matrices on the active profile (cloud or local), and the local road networks. */
export const routingCommands: CliCommand[] = [
  {
    name: 'routing matrix',
    summary: 'Distance and duration matrix (§4.3) between positions, on the active profile',
    usage:
      'routing matrix "LON,LAT;LON,LAT;…" [--profile driving|biking|walking|trucking] [--resources R] [--sources 0;1] [--destinations 2;3] [--rtype 0|1] [--json]',
    flags: {
      profile: 'string',
      resources: 'string',
      sources: 'string',
      destinations: 'string',
      rtype: 'string',
    },
    async run(ctx, args) {
      if (args.positionals.length !== 1)
        throw new GeoFailure(
          'validation',
          'routing matrix takes one argument: the positions, "lon,lat;lon,lat;…"',
          {
            field: 'geopositions',
          },
        )
      const { MATRIX_PROFILES, MATRIX_RESOURCES } = await import('../../contract/routing/matrix')
      const profile = oneOf<MatrixProfile>(stringFlag(args, 'profile'), MATRIX_PROFILES, 'profile', 'driving')
      const resources = oneOf<MatrixResource>(
        stringFlag(args, 'resources'),
        MATRIX_RESOURCES,
        'resources',
        'distance_matrix',
      )
      const rtypeText = stringFlag(args, 'rtype')
      if (rtypeText !== undefined && rtypeText !== '0' && rtypeText !== '1')
        throw new GeoFailure('validation', '--rtype: must be 0 (least time) or 1 (least distance)', {
          field: 'rtype',
        })
      const positions = args.positionals[0]!.split(';').map((p) => p.trim())
      const sources = indexList(args, 'sources')
      const destinations = indexList(args, 'destinations')
      const run = await ctx.invoke('routing.matrix', {
        resources,
        profile,
        positions,
        ...(sources ? { sources } : {}),
        ...(destinations ? { destinations } : {}),
        ...(rtypeText !== undefined ? { rtype: Number(rtypeText) } : {}),
      })
      const header = ['FROM\\TO', ...run.destinations.map(String)]
      const rows = run.sources.map((s, r) => [
        String(s),
        ...run.destinations.map((_, c) => {
          const d = run.distances[r]?.[c] ?? null
          return d === null ? '—' : `${km(d)} km ${hmm(run.durations[r]?.[c] ?? null)}`
        }),
      ])
      const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)))
      const line = (cells: string[]) =>
        cells
          .map((c, i) => c.padEnd(widths[i]!))
          .join('  ')
          .trimEnd()
      const note = [
        `results.code ${run.code}`,
        run.network ? `network ${run.network}` : undefined,
        run.snapped.some((s) => s === null)
          ? 'positions beyond 2 km of every road have no cells (—)'
          : undefined,
      ]
        .filter(Boolean)
        .join('; ')
      ctx.print(run, [line(header), ...rows.map(line), note].join('\n'))
    },
  },
  {
    name: 'routing import',
    summary: 'Import an OSM extract (.osm.pbf, .osm, .geojson, .geojsonl) as a road network of the workspace',
    usage: 'routing import FILE [--id ID] [--name NAME] [--time-zone ZONE] [--workspace DIR]',
    flags: { id: 'string', name: 'string', 'time-zone': 'string', workspace: 'string' },
    async run(ctx, args) {
      const [file] = args.positionals
      if (!file || args.positionals.length !== 1)
        throw new GeoFailure('validation', 'routing import takes exactly one FILE', { field: 'file' })
      // The readers and the graph builder are loaded when an import runs (a chunk of the built CLI).
      const { extractFormat, importNetwork } = await import('../../local-service/routing/data/import-network')
      const source = path.resolve(file)
      if (!extractFormat(source))
        throw new GeoFailure(
          'validation',
          `${file}: use an .osm.pbf, .osm (OSM XML), .geojson or .geojsonl extract`,
          {
            field: 'file',
          },
        )
      if (!existsSync(source)) throw new GeoFailure('not-found', `${file} does not exist`, { field: 'file' })
      const id = stringFlag(args, 'id') ?? networkIdFromFile(source)
      if (!NETWORK_ID_RULE.test(id))
        throw new GeoFailure(
          'validation',
          `--id: "${id}" must be lower-case letters, digits, - or _, starting with a letter`,
          {
            field: 'id',
          },
        )
      const dir = workspaceDir(ctx, args)
      const outFile = networkFile(dir, id)
      if (existsSync(outFile))
        throw new GeoFailure(
          'conflict',
          `a road network "${id}" exists in ${dir}; remove it first (routing remove ${id})`,
          {
            field: 'id',
          },
        )
      let shown = ''
      const started = performance.now()
      const { header, peakRss } = await importNetwork({
        file: source,
        outFile,
        meta: {
          id,
          name: stringFlag(args, 'name') ?? path.basename(source),
          attribution: 'OpenStreetMap contributors, ODbL',
          source: path.basename(source),
          ...(stringFlag(args, 'time-zone') ? { timeZone: stringFlag(args, 'time-zone') } : {}),
        },
        onProgress: (p) => {
          const text = `${p.phase} ${Math.round(p.fraction * 100)} %`
          if (text !== shown && !ctx.json) ctx.warn(text)
          shown = text
        },
      }).catch((error: unknown) => {
        throw new GeoFailure('validation', (error as Error).message, { field: 'file' })
      })
      const seconds = ((performance.now() - started) / 1000).toFixed(1)
      ctx.print(
        {
          network: header.id,
          counts: header.counts,
          bbox: header.bbox,
          timeZone: header.timeZone,
          file: outFile,
        },
        `Imported ${header.id}: ${header.counts.ways} ways, ${header.counts.nodes} nodes, ${header.counts.edges} edges in ${seconds} s (peak memory ${Math.round(peakRss / 1048576)} MiB), time zone ${header.timeZone}`,
      )
    },
  },
  {
    name: 'routing networks',
    summary: 'List the road networks of the workspace and the bundled sample',
    usage: 'routing networks [--workspace DIR] [--json]',
    flags: { workspace: 'string' },
    async run(ctx, args) {
      const list = await listNetworks(workspaceDir(ctx, args))
      const text = list
        .map(
          (n) =>
            `${n.id}${n.bundled ? ' (bundled)' : ''}: ${n.name} — ${n.counts.edges} edges, bbox ${n.bbox.map((x) => x.toFixed(3)).join(',')}, ${n.attribution}`,
        )
        .join('\n')
      // File paths stay out of the output; ids name the networks.
      ctx.print(
        list.map((n) => ({ ...n, file: undefined })),
        text || 'No road networks.',
      )
    },
  },
  {
    name: 'routing remove',
    summary: 'Remove an imported road network from the workspace',
    usage: 'routing remove ID [--workspace DIR]',
    flags: { workspace: 'string' },
    async run(ctx, args) {
      const [id] = args.positionals
      if (!id) throw new GeoFailure('validation', 'routing remove takes the network ID', { field: 'id' })
      await removeNetwork(workspaceDir(ctx, args), id).catch((error: unknown) => {
        throw new GeoFailure(
          /no road network/.test((error as Error).message) ? 'not-found' : 'conflict',
          (error as Error).message,
          {
            field: 'id',
          },
        )
      })
      ctx.print({ removed: id }, `Removed ${id}`)
    },
  },
]
