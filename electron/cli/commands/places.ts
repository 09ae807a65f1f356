import { randomUUID } from 'node:crypto'
import { promises as fs } from 'node:fs'
import path from 'node:path'
import type { Pod } from '../../contract/places/autosuggest'
import { writeFileAtomic } from '../../base/atomic-write'
import { GeoFailure } from '../../base/geo-failure'
import { CsvError, parseCsv } from '../../../shared/csv'
import { stringFlag, type ParsedArgs } from '../args'
import type { CliCommand } from '../context'

function text(args: ParsedArgs, what: string): string {
  const value = args.positionals.join(' ').trim()
  if (!value) throw new GeoFailure('validation', `${what} is required`, { field: what })
  return value
}

const pad = (rows: string[][]) => {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)))
  return rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
}

/** `geo-analyst places …`: standardize, suggest and geocode on the active profile (cloud or local alike). */
export const placesCommands: CliCommand[] = [
  {
    name: 'places standardize',
    summary: 'Standardize an address (§4.1): its tagged parts and administrative places',
    usage: 'places standardize "<address>" [--bias N] [--json]',
    flags: { bias: 'string' },
    async run(ctx, args) {
      const address = text(args, 'address')
      const biasText = stringFlag(args, 'bias')
      const bias = biasText === undefined ? undefined : Number(biasText)
      if (bias !== undefined && !(bias > 0))
        throw new GeoFailure('validation', '--bias must be a positive number (1 neutral, 1.5 urban)', {
          field: 'bias',
        })
      const result = await ctx.invoke('places.standardize', {
        address,
        ...(bias !== undefined ? { bias } : {}),
      })
      if (!result.found || !result.address) {
        ctx.print(result, 'Nothing recognised in the address.')
        return
      }
      const a = result.address
      const ref = a.referentialInformation
      const admin = (a.addressInformation?.adminDetails ?? {}) as Record<
        string,
        { originalName?: string } | undefined
      >
      const rows = [
        ['PART', 'VALUE'],
        ['house number', ref?.houseNumbers?.formatted ?? ''],
        ['floor', ref?.floors ?? ''],
        ['road', ref?.roads ?? ''],
        ['landmark', ref?.landmarks ?? ''],
        ['care of', ref?.careOfs ?? ''],
        ['post office', ref?.postOffices ?? ''],
        ['PIN code', ref?.pincodes ?? ''],
        ...['subsublocality', 'sublocality', 'locality', 'city', 'district', 'state'].map((l) => [
          l,
          admin[l]?.originalName ?? '',
        ]),
        ['not recognised', a.remainingAddress],
      ].filter((r, i) => i === 0 || r[1])
      ctx.print(result, pad(rows))
    },
  },
  {
    name: 'places suggest',
    summary: 'Suggest places for a text as typed (§4.2)',
    usage:
      'places suggest "<text>" [--location LAT,LNG] [--pod CITY] [--filter pin:110001] [--hyper-local] [--tokenize] [--json]',
    flags: {
      location: 'string',
      pod: 'string',
      filter: 'string',
      region: 'string',
      'hyper-local': 'boolean',
      tokenize: 'boolean',
      bridge: 'boolean',
    },
    async run(ctx, args) {
      const query = text(args, 'query')
      const pod = stringFlag(args, 'pod')
      const { POD_VALUES } = await import('../../contract/places/autosuggest')
      if (pod !== undefined && !(POD_VALUES as readonly string[]).includes(pod))
        throw new GeoFailure('validation', `--pod must be one of ${POD_VALUES.join(', ')}`, { field: 'pod' })
      const request = {
        query,
        ...(stringFlag(args, 'location') ? { location: stringFlag(args, 'location') } : {}),
        ...(stringFlag(args, 'filter') ? { filter: stringFlag(args, 'filter') } : {}),
        ...(stringFlag(args, 'region') ? { region: stringFlag(args, 'region') } : {}),
        ...(pod ? { pod: pod as Pod } : {}),
        ...(args.flags['hyper-local'] ? { hyperLocal: true } : {}),
        ...(args.flags.tokenize ? { tokenizeAddress: true } : {}),
        ...(args.flags.bridge ? { bridge: true } : {}),
      }
      const result = await ctx.invoke('places.autosuggest', request)
      const rows = [
        ['NAME', 'TYPE', 'ADDRESS', 'ELOC', 'LAT', 'LNG'],
        ...result.suggestedLocations.map((s) => [
          String(s.placeName ?? ''),
          String(s.type ?? ''),
          String(s.placeAddress ?? ''),
          String(s.eLoc ?? ''),
          String(s.latitude ?? ''),
          String(s.longitude ?? ''),
        ]),
        ...result.userAddedLocation.map((s) => [
          String(s.placeName ?? ''),
          'MY PLACE',
          String(s.placeAddress ?? ''),
          String(s.eLoc ?? ''),
          String(s.latitude ?? ''),
          String(s.longitude ?? ''),
        ]),
      ]
      ctx.print(result, rows.length > 1 ? pad(rows) : 'No place matches.')
    },
  },
  {
    name: 'places geocode',
    summary: 'Geocode a CSV column of addresses into GeoJSON points with standardized and match columns',
    usage: 'places geocode FILE.csv --column NAME --out POINTS.geojson [--save-as DATASET] [--json]',
    flags: { column: 'string', out: 'string', 'save-as': 'string' },
    async run(ctx, args) {
      const file = args.positionals[0]
      const column = stringFlag(args, 'column')
      const out = stringFlag(args, 'out')
      const saveAs = stringFlag(args, 'save-as')
      if (!file) throw new GeoFailure('validation', 'the CSV file is required', { field: 'file' })
      if (!column)
        throw new GeoFailure('validation', '--column (the address column) is required', { field: 'column' })
      if (!out && !saveAs)
        throw new GeoFailure('validation', '--out FILE (or --save-as DATASET) is required', { field: 'out' })
      let csv: string
      try {
        csv = await fs.readFile(file, 'utf8')
      } catch (error) {
        throw new GeoFailure('validation', `${file}: ${(error as Error).message}`, { field: 'file' })
      }
      let parsed: string[][]
      try {
        parsed = parseCsv(csv)
      } catch (error) {
        if (!(error instanceof CsvError)) throw error
        throw new GeoFailure('validation', `${file}: ${error.message}`, { field: 'file' })
      }
      const [fields, ...rows] = parsed
      if (!fields?.length) throw new GeoFailure('validation', `${file}: no header row`, { field: 'file' })
      const summary = await ctx.invoke('places.geocode', {
        jobId: randomUUID(),
        source: { kind: 'rows', fileName: path.basename(file), fields, rows },
        column,
        ...(saveAs ? { saveAs } : {}),
        returnGeojson: !!out,
      })
      if (out && summary.geojson !== undefined) await writeFileAtomic(out, summary.geojson, { mode: 0o644 })
      const { geojson: _geojson, ...shown } = summary
      const levels = Object.entries(summary.byLevel)
        .map(([level, n]) => `${level} ${n}`)
        .join(', ')
      ctx.print(
        { ...shown, ...(out ? { out } : {}) },
        `${summary.matched} of ${summary.total} addresses placed (${levels})${out ? `; written to ${out}` : ''}${summary.dataset ? `; saved as dataset ${summary.dataset.layername}` : ''}`,
      )
    },
  },
]
