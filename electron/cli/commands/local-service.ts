import path from 'node:path'
import { GeoFailure } from '../../base/geo-failure'
import { resolveWorkspaceDir } from '../../core/paths'
import { EXPORT_FORMATS, type ExportFormat } from '../../local-service/export/formats'
import { ImportError } from '../../local-service/import/crs'
import { DatabaseWorkspaceError, failureClassOf } from '../../local-service/postgis/errors'
import {
  describeWorkspace,
  isDatabaseWorkspace,
  parseWorkspaceUri,
  WorkspaceUriError,
} from '../../local-service/postgis/uri'
import type { PostgisWorkspace } from '../../local-service/postgis/workspace'
import { ListenPolicyError, planListen, type ListenPlan } from '../../local-service/team/listen-policy'
import { TlsFilesError } from '../../local-service/team/tls-files'
import { UsersFileError } from '../../local-service/team/users-file'
import type { Workspace } from '../../local-service/workspace/workspace'
import { stringFlag, type ParsedArgs } from '../args'
import type { CliCommand, CliContext } from '../context'

// What a command runs is loaded when it runs (a chunk of the built CLI): `datasets` over a database reads the
// catalogs without loading the local service, its file readers or writers.
const workspaceModule = () => import('../../local-service/workspace/workspace')

/** The workspace named by `--workspace` (else GEO_ANALYST_WORKSPACE) when it is a postgresql:// URI. */
function databaseUriOf(ctx: CliContext, args: ParsedArgs): string | undefined {
  const named = stringFlag(args, 'workspace') || ctx.env.GEO_ANALYST_WORKSPACE
  return isDatabaseWorkspace(named) ? named : undefined
}

async function workspaceOf(ctx: CliContext, args: ParsedArgs): Promise<Workspace> {
  if (databaseUriOf(ctx, args))
    throw new GeoFailure(
      'validation',
      'this command works on a folder workspace only; a postgresql:// workspace serves, lists, imports and exports datasets',
      { field: 'workspace' },
    )
  const { Workspace } = await workspaceModule()
  return new Workspace(resolveWorkspaceDir({ flag: stringFlag(args, 'workspace'), env: ctx.env }))
}

/** A PostGIS workspace's problems as failure classes, in the plain words of "Test connection". */
async function databaseMapped<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof WorkspaceUriError)
      throw new GeoFailure('validation', error.message, { field: 'workspace' })
    if (error instanceof DatabaseWorkspaceError)
      throw new GeoFailure(failureClassOf(error.problem), error.message, {
        code: `database-${error.problem}`,
      })
    throw error
  }
}

/** `work` on the PostGIS workspace a URI names, closed after; its problems as failure classes. */
function withDatabase<T>(
  ctx: CliContext,
  uri: string,
  work: (ws: PostgisWorkspace) => Promise<T>,
): Promise<T> {
  return mapped(() =>
    databaseMapped(async () => {
      const { PostgisWorkspace } = await import('../../local-service/postgis/workspace')
      const workspace = PostgisWorkspace.fromUri(uri, { env: ctx.env })
      try {
        return await work(workspace)
      } finally {
        await workspace.close()
      }
    }),
  )
}

/** Workspace and import errors as failure classes (exit codes follow from them). */
async function mapped<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof GeoFailure) throw error
    if (error instanceof ImportError) throw new GeoFailure('validation', error.message)
    // A users file that cannot be read (`serve --users`): nothing was started.
    if (error instanceof UsersFileError)
      throw new GeoFailure(
        error.problem === 'invalid' ? 'validation' : 'local-configuration',
        error.message,
        {
          field: 'users',
        },
      )
    // A workspace error comes from the workspace's module, loaded by then.
    const { WorkspaceError } = await workspaceModule()
    if (error instanceof WorkspaceError) {
      const cls =
        error.kind === 'conflict' ? 'conflict' : error.kind === 'not-found' ? 'not-found' : 'validation'
      throw new GeoFailure(cls, error.message, { field: error.kind === 'invalid-name' ? 'name' : undefined })
    }
    throw error
  }
}

/** `--listen`/`--port`/`--tls-*`/`--users` into a bind, refused before anything starts (listen-policy). */
function listenPlanOf(args: ParsedArgs): ListenPlan {
  try {
    return planListen({
      listen: stringFlag(args, 'listen'),
      ...(stringFlag(args, 'port') !== undefined ? { port: portFlag(args) } : {}),
      tlsCert: stringFlag(args, 'tls-cert'),
      tlsKey: stringFlag(args, 'tls-key'),
      users: stringFlag(args, 'users'),
    })
  } catch (error) {
    if (error instanceof ListenPolicyError)
      throw new GeoFailure('validation', error.message, { field: error.field })
    throw error
  }
}

/** A TLS file that cannot serve, as a validation failure naming the flag. */
async function tlsMapped<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof TlsFilesError || error instanceof ListenPolicyError)
      throw new GeoFailure('validation', error.message, { field: error.field })
    throw error
  }
}

function portFlag(args: ParsedArgs): number {
  const text = stringFlag(args, 'port')
  if (text === undefined) return 0
  const port = Number(text)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new GeoFailure('validation', `--port must be an integer 0–65535, not "${text}"`, { field: 'port' })
  }
  return port
}

/**
 * The audit log of `serve`: `--audit-log FILE`, else `<workspace folder>/audit.log` for a team server
 * (`--users`), else none; `--audit-all` records reads too.
 */
function auditOf(args: ParsedArgs, workspaceDir: string): { auditLog?: { file: string; all: boolean } } {
  const file =
    stringFlag(args, 'audit-log') ||
    (stringFlag(args, 'users') ? path.join(workspaceDir, 'audit.log') : undefined)
  if (!file) {
    if (args.flags['audit-all'] === true)
      throw new GeoFailure('validation', '--audit-all needs an audit log: --audit-log FILE or --users', {
        field: 'audit-all',
      })
    return {}
  }
  return { auditLog: { file: path.resolve(file), all: args.flags['audit-all'] === true } }
}

/** `datasets` over a PostGIS workspace: from the catalogs; counts are the planner's estimates (~). */
async function databaseDatasets(ctx: CliContext, uri: string): Promise<void> {
  const list = await withDatabase(ctx, uri, (workspace) => workspace.list())
  const count = (n: number | null) => (n === null ? '?' : `~${n}`)
  ctx.print(list, datasetTable(list.map((d) => ({ ...d, features: count(d.featureCount) }))))
}

/**
 * The human table of `datasets`: name, type, features, source — with an OWNER column (before SOURCE) when
 * any dataset records the team server's user who saved it.
 */
function datasetTable(
  list: readonly { name: string; geometryType: string; features: string; source: string; owner?: string }[],
): string {
  if (list.length === 0) return 'The workspace has no datasets.'
  const width = Math.max(4, ...list.map((d) => d.name.length))
  const owners = list.some((d) => d.owner) ? Math.max(5, ...list.map((d) => (d.owner ?? '').length)) : 0
  const owner = (text: string) => (owners ? `${text.padEnd(owners)}  ` : '')
  return [
    `${'NAME'.padEnd(width)}  ${'TYPE'.padEnd(16)}${'FEATURES'.padStart(10)}  ${owner('OWNER')}SOURCE`,
    ...list.map(
      (d) =>
        `${d.name.padEnd(width)}  ${d.geometryType.padEnd(16)}${d.features.padStart(10)}  ${owner(d.owner ?? '-')}${d.source}`,
    ),
  ].join('\n')
}

export const localServiceCommands: CliCommand[] = [
  {
    name: 'serve',
    summary:
      'Run the built-in local service until Ctrl-C: on 127.0.0.1, or as a team server with --listen, TLS and a users file',
    usage:
      'serve [--port N | --listen HOST:PORT --tls-cert FILE --tls-key FILE --users FILE [--import-dir DIR]] [--workspace DIR|postgresql://USER@HOST:PORT/DB?schema=S1,S2] [--token T] [--licence-key K] [--no-sample] [--audit-log FILE] [--audit-all]',
    flags: {
      port: 'string',
      listen: 'string',
      'tls-cert': 'string',
      'tls-key': 'string',
      users: 'string',
      'import-dir': 'string',
      workspace: 'string',
      token: 'string',
      'licence-key': 'string',
      'no-sample': 'boolean',
      'audit-log': 'string',
      'audit-all': 'boolean',
    },
    async run(ctx, args) {
      // Before anything starts or binds: off loopback only with TLS and a users file.
      const plan = listenPlanOf(args)
      const databaseUri = databaseUriOf(ctx, args)
      // With a database workspace the folder workspace (GEO_ANALYST_WORKSPACE or the default) still serves joins.
      const workspaceDir = resolveWorkspaceDir({
        flag: databaseUri ? undefined : stringFlag(args, 'workspace'),
        env: isDatabaseWorkspace(ctx.env.GEO_ANALYST_WORKSPACE)
          ? { ...ctx.env, GEO_ANALYST_WORKSPACE: undefined }
          : ctx.env,
      })
      const token = stringFlag(args, 'token') || ctx.env.GEO_ANALYST_TOKEN || undefined
      const licenceKey = stringFlag(args, 'licence-key') || ctx.env.GEO_ANALYST_LICENCE_KEY || undefined
      // The folder a team server's users may import from by path (none without it).
      const importDirFlag = stringFlag(args, 'import-dir')
      const importDir = importDirFlag ? path.resolve(importDirFlag) : undefined
      const service = await mapped(() =>
        databaseMapped(() =>
          tlsMapped(async () =>
            (await import('../../local-service/index')).startLocalService({
              workspaceDir,
              ...(databaseUri ? { databaseUri, env: ctx.env } : {}),
              listen: { host: plan.host, port: plan.port },
              ...(plan.tls ? { tls: plan.tls } : {}),
              ...(plan.usersFile ? { usersFile: plan.usersFile } : {}),
              ...(importDir ? { importDir } : {}),
              token,
              licenceKey,
              sampleData: args.flags['no-sample'] !== true,
              ...auditOf(args, workspaceDir),
            }),
          ),
        ),
      )
      const shown = databaseUri ? describeWorkspace(parseWorkspaceUri(databaseUri)) : workspaceDir
      // With a users file only its users' secrets are accepted: there is no service secret to show.
      const generated: Record<string, string> = {}
      if (!token && !plan.usersFile) generated.token = service.token
      if (!licenceKey && !plan.usersFile) generated.licenceKey = service.licenceKey
      const lines = [
        `${plan.tls ? 'Team server (HTTPS)' : 'Local service'} on ${plan.host.includes(':') ? `[${plan.host}]` : plan.host}:${service.port}, workspace ${shown}`,
        ...(service.sampleCreated.length
          ? [`Sample datasets created: ${service.sampleCreated.join(', ')}`]
          : []),
        ...Object.entries(service.urls).map(([k, v]) => `  ${k.padEnd(17)}${v}`),
        ...(generated.token ? [`Generated bearer token: ${generated.token}`] : []),
        ...(generated.licenceKey ? [`Generated licence key: ${generated.licenceKey}`] : []),
        ...(plan.usersFile ? [`Users: ${plan.usersFile} (geo-analyst users add NAME --file …)`] : []),
        ...(plan.usersFile
          ? [
              importDir
                ? `Users may import by path from: ${importDir}`
                : 'Users may not import by path (no --import-dir)',
            ]
          : []),
        'Press Ctrl-C to stop.',
      ]
      ctx.print({ urls: service.urls, workspace: shown, port: service.port, generated }, lines.join('\n'))
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.off('SIGINT', stop)
          process.off('SIGTERM', stop)
          resolve()
        }
        process.on('SIGINT', stop)
        process.on('SIGTERM', stop)
      })
      await service.close()
      ctx.stderr.write('Local service stopped.\n')
    },
  },
  {
    name: 'import',
    summary:
      'Import a GeoJSON, NDJSON, CSV, KML, zipped Shapefile, FlatGeobuf or GeoPackage file as a dataset',
    usage: 'import FILE [--name NAME] [--skip-invalid] [--workspace DIR|postgresql://…]',
    flags: { name: 'string', workspace: 'string', 'skip-invalid': 'boolean' },
    async run(ctx, args) {
      const file = args.positionals[0]
      if (!file || args.positionals.length > 1)
        throw new GeoFailure('validation', 'import takes exactly one FILE', { field: 'file' })
      const databaseUri = databaseUriOf(ctx, args)
      if (databaseUri) {
        const { importIntoDatabase } = await import('../../local-service/postgis/import')
        const made = await withDatabase(ctx, databaseUri, (ws) =>
          importIntoDatabase(ws, path.resolve(file), {
            name: stringFlag(args, 'name'),
            skipInvalid: args.flags['skip-invalid'] === true,
          }),
        )
        const left = made.skippedInvalid
          ? ` ${made.skippedInvalid} invalid feature${made.skippedInvalid === 1 ? ' was' : 's were'} left out.`
          : ''
        return ctx.print(
          made,
          `Imported ${made.name} into ${made.schema}: ${made.featureCount} ${made.geometryType} features, ${made.fields.length} fields.${left}`,
        )
      }
      const workspace = await workspaceOf(ctx, args)
      const [{ sweepLeftovers }, { importInWorker }] = await Promise.all([
        import('../../local-service/workspace/sweep'),
        import('../../local-service/import/import-runner'),
      ])
      // Read in a worker within the import limits, so a hostile file cannot hang or exhaust this process.
      await sweepLeftovers({ workspaceDir: workspace.dir })
      const manifest = await mapped(() =>
        importInWorker(workspace, path.resolve(file), {
          name: stringFlag(args, 'name'),
          skipInvalid: args.flags['skip-invalid'] === true,
        }),
      )
      const skipped = manifest.skippedInvalid
        ? ` ${manifest.skippedInvalid} invalid feature${manifest.skippedInvalid === 1 ? ' was' : 's were'} left out.`
        : ''
      ctx.print(
        manifest,
        `Imported ${manifest.name}: ${manifest.featureCount} ${manifest.geometryType} features, ${manifest.fields.length} fields.${skipped}`,
      )
    },
  },
  {
    name: 'datasets',
    summary: 'List the datasets of the workspace',
    usage: 'datasets [--workspace DIR|postgresql://USER@HOST:PORT/DB?schema=S1,S2]',
    flags: { workspace: 'string' },
    async run(ctx, args) {
      const databaseUri = databaseUriOf(ctx, args)
      if (databaseUri) return databaseDatasets(ctx, databaseUri)
      const list = await (await workspaceOf(ctx, args)).list()
      ctx.print(list, datasetTable(list.map((m) => ({ ...m, features: String(m.featureCount) }))))
    },
  },
  {
    name: 'export',
    summary: 'Export a dataset as GeoJSON, CSV (WKT), FlatGeobuf or GeoPackage',
    usage:
      'export NAME --format geojson|csv|fgb|gpkg --out FILE [--workspace DIR|postgresql://… (geojson or csv)]',
    flags: { format: 'string', out: 'string', workspace: 'string' },
    async run(ctx, args) {
      const name = args.positionals[0]
      if (!name) throw new GeoFailure('validation', 'export needs a dataset NAME', { field: 'name' })
      const format = stringFlag(args, 'format')
      if (!format || !(EXPORT_FORMATS as readonly string[]).includes(format)) {
        throw new GeoFailure('validation', `--format must be one of ${EXPORT_FORMATS.join(', ')}`, {
          field: 'format',
        })
      }
      const out = stringFlag(args, 'out')
      if (!out) throw new GeoFailure('validation', '--out FILE is required', { field: 'out' })
      const databaseUri = databaseUriOf(ctx, args)
      const count = databaseUri
        ? await withDatabase(ctx, databaseUri, async (ws) => {
            const { ExportFormatError, exportFromDatabase } =
              await import('../../local-service/postgis/export')
            return exportFromDatabase(ws, name, format, path.resolve(out)).catch((error: unknown) => {
              if (error instanceof ExportFormatError)
                throw new GeoFailure('validation', error.message, { field: 'format' })
              throw error
            })
          })
        : await mapped(async () => {
            const { exportDataset } = await import('../../local-service/export/export-dataset')
            return exportDataset(
              await workspaceOf(ctx, args),
              name,
              format as ExportFormat,
              path.resolve(out),
            )
          })
      ctx.print(
        { name, format, out: path.resolve(out), features: count },
        `Exported ${count} features of ${name} to ${path.resolve(out)}.`,
      )
    },
  },
]
