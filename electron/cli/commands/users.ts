import path from 'node:path'
import { GeoFailure } from '../../base/geo-failure'
import type { FailureClass } from '../../contract'
import {
  addUser,
  listUsers,
  parseGroups,
  revokeUser,
  UsersFileError,
  type PublicUser,
  type UsersFileProblem,
} from '../../local-service/team/users-file'
import { stringFlag, type ParsedArgs } from '../args'
import type { CliCommand, CliContext } from '../context'

/** The environment variable that names the users file when `--file` is not given. */
export const USERS_FILE_ENV = 'GEO_ANALYST_USERS'

const FAILURE_OF: Readonly<Record<UsersFileProblem, FailureClass>> = {
  missing: 'not-found',
  unreadable: 'local-configuration',
  invalid: 'validation',
  conflict: 'conflict',
  'not-found': 'not-found',
  busy: 'conflict',
}

function usersFile(ctx: CliContext, args: ParsedArgs): string {
  const file = stringFlag(args, 'file') ?? ctx.env[USERS_FILE_ENV]
  if (!file)
    throw new GeoFailure(
      'local-configuration',
      `No users file: give --file USERS_FILE or set ${USERS_FILE_ENV} (the file serve --users reads)`,
      { field: 'file' },
    )
  return path.resolve(file)
}

function oneName(args: ParsedArgs, command: string): string {
  const [name, ...rest] = args.positionals
  if (!name) throw new GeoFailure('validation', `${command} needs the user's NAME`, { field: 'name' })
  if (rest.length)
    throw new GeoFailure('validation', `${command} takes one NAME; got ${args.positionals.length}`)
  return name
}

/** The users file's own errors as the CLI's failure classes (and exit codes). */
async function usersFailure<T>(work: Promise<T>): Promise<T> {
  return work.catch((error: unknown) => {
    if (error instanceof UsersFileError) throw new GeoFailure(FAILURE_OF[error.problem], error.message)
    throw error
  })
}

function userLine(u: PublicUser): string {
  return [
    u.name.padEnd(16),
    u.groups.join(',').padEnd(36),
    (u.readOnly ? 'read-only' : 'read-write').padEnd(11),
    `created ${u.created}`,
    ...(u.revoked ? [`revoked ${u.revoked}`] : []),
  ].join('  ')
}

const FILE_USAGE = '[--file USERS_FILE]'

/** `geo-analyst users …`: the users of a team server (`serve --users FILE`). */
export const usersCommands: CliCommand[] = [
  {
    name: 'users add',
    summary:
      'Add a user of a team server; prints its token and licence key once (the file keeps only hashes)',
    usage: `users add NAME [--groups places,routing,telematics,gis,vision] [--read-only] ${FILE_USAGE}`,
    flags: { groups: 'string', 'read-only': 'boolean', file: 'string' },
    async run(ctx, args) {
      const file = usersFile(ctx, args)
      const name = oneName(args, 'users add')
      const groups = await usersFailure(Promise.resolve().then(() => parseGroups(stringFlag(args, 'groups'))))
      const added = await usersFailure(
        addUser(file, { name, groups, readOnly: args.flags['read-only'] === true }),
      )
      ctx.print(
        { ...added.user, token: added.token, licenceKey: added.licenceKey, file },
        [
          `Added user ${added.user.name} (${added.user.readOnly ? 'read-only' : 'read-write'}; groups ${added.user.groups.join(', ')}) to ${file}.`,
          `Token:       ${added.token}`,
          `Licence key: ${added.licenceKey}`,
          'Shown this once: the users file keeps only their hashes. Give them to the user, e.g. with',
          'geo-analyst secret set token / secret set licence-key on their remote profile.',
        ].join('\n'),
      )
    },
  },
  {
    name: 'users list',
    summary: "List a team server's users: name, groups, read-only, created, revoked (never a secret)",
    usage: `users list ${FILE_USAGE}`,
    flags: { file: 'string' },
    async run(ctx, args) {
      const file = usersFile(ctx, args)
      if (args.positionals.length) throw new GeoFailure('validation', 'users list takes no NAME')
      const users = await usersFailure(listUsers(file))
      ctx.print(
        { file, users },
        users.length
          ? users.map(userLine).join('\n')
          : `No users in ${file}; add one with geo-analyst users add NAME.`,
      )
    },
  },
  {
    name: 'users revoke',
    summary: 'Revoke a user: a running server refuses its token and licence key within a second, no restart',
    usage: `users revoke NAME ${FILE_USAGE}`,
    flags: { file: 'string' },
    async run(ctx, args) {
      const file = usersFile(ctx, args)
      const user = await usersFailure(revokeUser(file, oneName(args, 'users revoke')))
      ctx.print(
        user,
        `Revoked user ${user.name} (${user.revoked}); its token and licence key are refused from now.`,
      )
    },
  },
]
