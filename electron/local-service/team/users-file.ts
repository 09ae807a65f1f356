import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto'
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { writeFileAtomic } from '../../base/atomic-write'
import { withFileLock } from '../../base/file-lock'
import { GROUP_NAMES, type Group } from '../../contract/groups'

/**
 * The team server's users file (`serve --users FILE`, `geo-analyst users …`): JSON, versioned, written
 * atomically with mode 0600. It keeps, per user, only salted scrypt hashes of the bearer token and of the
 * licence key (with the parameters they were derived with), never a secret.
 *
 * A secret names its user, `gat_<name>_<43 chars>` for a token and `gak_<name>_<43 chars>` for a licence key,
 * so checking one needs no scan of the users: the name finds the user, then one hash is derived and compared.
 */
export const USERS_FILE_VERSION = 1
export const USER_NAME_RULE = /^[A-Za-z0-9._-]{1,64}$/
export const USER_NAME_MESSAGE = 'a user name is 1 to 64 of the characters A-Z a-z 0-9 . _ -'

export type SecretKind = 'token' | 'licence-key'
const PREFIX: Readonly<Record<SecretKind, string>> = { token: 'gat_', 'licence-key': 'gak_' }
/** 32 random bytes in base64url. */
const SECRET_CHARS = 43
const SECRET_RULE = /^[A-Za-z0-9_-]{43}$/

/** The scrypt parameters new hashes are derived with (about 16 MiB and tens of milliseconds per hash). */
export const SCRYPT_PARAMS = Object.freeze({ N: 16384, r: 8, p: 1, keyLength: 32 })
const SALT_BYTES = 16

export interface SecretHash {
  kdf: 'scrypt'
  N: number
  r: number
  p: number
  keyLength: number
  /** base64url */
  salt: string
  /** base64url */
  hash: string
}

export interface UserRecord {
  name: string
  groups: Group[]
  readOnly: boolean
  /** ISO time. */
  created: string
  /** ISO time of the revocation; absent while the user may connect. */
  revoked?: string
  token: SecretHash
  licenceKey: SecretHash
}

export interface UsersFileContent {
  version: typeof USERS_FILE_VERSION
  users: UserRecord[]
}

/** What `users list` shows of a user: never a hash. */
export interface PublicUser {
  name: string
  groups: Group[]
  readOnly: boolean
  created: string
  revoked?: string
}

export type UsersFileProblem = 'missing' | 'unreadable' | 'invalid' | 'conflict' | 'not-found' | 'busy'

export class UsersFileError extends Error {
  constructor(
    readonly problem: UsersFileProblem,
    message: string,
  ) {
    super(message)
    this.name = 'UsersFileError'
  }
}

export function publicUser(user: UserRecord): PublicUser {
  return {
    name: user.name,
    groups: [...user.groups],
    readOnly: user.readOnly,
    created: user.created,
    ...(user.revoked ? { revoked: user.revoked } : {}),
  }
}

export function checkUserName(name: string): string {
  if (!USER_NAME_RULE.test(name))
    throw new UsersFileError('invalid', `user name "${name.slice(0, 80)}": ${USER_NAME_MESSAGE}`)
  return name
}

/** `places,gis` → the groups; every group when `text` is undefined. */
export function parseGroups(text: string | undefined): Group[] {
  if (text === undefined) return [...GROUP_NAMES]
  const names = text
    .split(',')
    .map((g) => g.trim())
    .filter((g) => g !== '')
  if (names.length === 0)
    throw new UsersFileError('invalid', `groups: name at least one of ${GROUP_NAMES.join(', ')}`)
  for (const name of names) {
    if (!(GROUP_NAMES as string[]).includes(name))
      throw new UsersFileError(
        'invalid',
        `groups: "${name.slice(0, 40)}" is not a group; the groups are ${GROUP_NAMES.join(', ')}`,
      )
  }
  return GROUP_NAMES.filter((g) => names.includes(g))
}

export function formatSecret(kind: SecretKind, name: string, secret: string): string {
  return `${PREFIX[kind]}${name}_${secret}`
}

/** The kind and user a presented secret names; undefined when it is not one of this file's secrets. */
export function parseSecret(
  presented: string,
): { kind: SecretKind; name: string; secret: string } | undefined {
  const kind = (Object.keys(PREFIX) as SecretKind[]).find((k) => presented.startsWith(PREFIX[k]))
  if (!kind) return undefined
  const cut = presented.length - SECRET_CHARS - 1
  if (cut <= PREFIX[kind].length || presented[cut] !== '_') return undefined
  const name = presented.slice(PREFIX[kind].length, cut)
  const secret = presented.slice(cut + 1)
  if (!USER_NAME_RULE.test(name) || !SECRET_RULE.test(secret)) return undefined
  return { kind, name, secret }
}

/** Compare two derived hashes in constant time (lengths differ only for a damaged file). */
export function equalDigests(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b)
}

function derive(
  secret: string,
  salt: Buffer,
  params: Omit<SecretHash, 'kdf' | 'salt' | 'hash'>,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      secret,
      salt,
      params.keyLength,
      { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r + 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    )
  })
}

export async function hashSecret(secret: string, params = SCRYPT_PARAMS): Promise<SecretHash> {
  const salt = randomBytes(SALT_BYTES)
  const hash = await derive(secret, salt, params)
  return { kdf: 'scrypt', ...params, salt: salt.toString('base64url'), hash: hash.toString('base64url') }
}

/** Whether `secret` derives to the stored hash (with the parameters stored beside it). */
export async function verifySecret(secret: string, stored: SecretHash): Promise<boolean> {
  const derived = await derive(secret, Buffer.from(stored.salt, 'base64url'), stored)
  return equalDigests(derived, Buffer.from(stored.hash, 'base64url'))
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function checkHash(value: unknown, where: string): SecretHash {
  const ok =
    isRecord(value) &&
    value.kdf === 'scrypt' &&
    Number.isInteger(value.N) &&
    (value.N as number) >= 1024 &&
    (value.N as number) <= 1 << 20 &&
    ((value.N as number) & ((value.N as number) - 1)) === 0 &&
    Number.isInteger(value.r) &&
    (value.r as number) >= 1 &&
    (value.r as number) <= 32 &&
    Number.isInteger(value.p) &&
    (value.p as number) >= 1 &&
    (value.p as number) <= 16 &&
    Number.isInteger(value.keyLength) &&
    (value.keyLength as number) >= 16 &&
    (value.keyLength as number) <= 64 &&
    typeof value.salt === 'string' &&
    typeof value.hash === 'string' &&
    /^[A-Za-z0-9_-]{16,}$/.test(value.salt) &&
    Buffer.from(value.hash, 'base64url').length === value.keyLength
  if (!ok) throw new UsersFileError('invalid', `${where} is not a scrypt hash this service reads`)
  const v = value as Record<string, unknown>
  return {
    kdf: 'scrypt',
    N: v.N,
    r: v.r,
    p: v.p,
    keyLength: v.keyLength,
    salt: v.salt,
    hash: v.hash,
  } as SecretHash
}

function checkTime(value: unknown, where: string): string {
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value)))
    throw new UsersFileError('invalid', `${where} is not a time`)
  return value
}

/** Read the file's text as a users file; every problem named, never echoing the text. */
export function parseUsersFile(text: string, file: string): UsersFileContent {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    throw new UsersFileError('invalid', `users file ${file} is not valid JSON`)
  }
  if (!isRecord(data) || data.version !== USERS_FILE_VERSION || !Array.isArray(data.users))
    throw new UsersFileError(
      'invalid',
      `users file ${file} is not a version ${USERS_FILE_VERSION} users file`,
    )
  const seen = new Set<string>()
  const users = data.users.map((u: unknown, i): UserRecord => {
    const where = `users file ${file}, user ${i + 1}`
    if (!isRecord(u) || typeof u.name !== 'string' || !USER_NAME_RULE.test(u.name))
      throw new UsersFileError('invalid', `${where}: ${USER_NAME_MESSAGE}`)
    if (seen.has(u.name)) throw new UsersFileError('invalid', `${where}: the name ${u.name} appears twice`)
    seen.add(u.name)
    if (!Array.isArray(u.groups) || !u.groups.every((g) => (GROUP_NAMES as unknown[]).includes(g)))
      throw new UsersFileError(
        'invalid',
        `${where} (${u.name}): groups must be a list of ${GROUP_NAMES.join(', ')}`,
      )
    if (typeof u.readOnly !== 'boolean')
      throw new UsersFileError('invalid', `${where} (${u.name}): readOnly must be true or false`)
    return {
      name: u.name,
      groups: GROUP_NAMES.filter((g) => (u.groups as unknown[]).includes(g)),
      readOnly: u.readOnly,
      created: checkTime(u.created, `${where} (${u.name}): created`),
      ...(u.revoked !== undefined ? { revoked: checkTime(u.revoked, `${where} (${u.name}): revoked`) } : {}),
      token: checkHash(u.token, `${where} (${u.name}): token`),
      licenceKey: checkHash(u.licenceKey, `${where} (${u.name}): licenceKey`),
    }
  })
  return { version: USERS_FILE_VERSION, users }
}

function readProblem(error: unknown, file: string): UsersFileError {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'ENOENT') return new UsersFileError('missing', `users file ${file} does not exist`)
  return new UsersFileError('unreadable', `users file ${file} cannot be read (${code ?? 'error'})`)
}

export async function readUsersFile(file: string): Promise<UsersFileContent> {
  const text = await fs.readFile(file, 'utf8').catch((error: unknown) => {
    throw readProblem(error, file)
  })
  return parseUsersFile(text, file)
}

/** The file's text and the identity of the version read (inode, size, mtime), from one open handle. */
export async function readUsersFileStamped(
  file: string,
): Promise<{ content: UsersFileContent; stamp: string }> {
  const handle = await fs.open(file, 'r').catch((error: unknown) => {
    throw readProblem(error, file)
  })
  try {
    const stat = await handle.stat()
    const text = await handle.readFile('utf8')
    return { content: parseUsersFile(text, file), stamp: stampOf(stat) }
  } catch (error) {
    if (error instanceof UsersFileError) throw error
    throw readProblem(error, file)
  } finally {
    await handle.close()
  }
}

export function stampOf(stat: {
  ino: number | bigint
  size: number | bigint
  mtimeMs: number | bigint
}): string {
  return `${stat.ino}:${stat.size}:${stat.mtimeMs}`
}

/** Hold `FILE.lock` while changing the file, so two `users` commands at once do not lose one's change. */
function withLock<T>(file: string, work: () => Promise<T>): Promise<T> {
  return withFileLock(`${file}.lock`, work, {
    waitMs: 5_000,
    // A lock left by a process that died mid-change (on another host too: a shared folder) is stale after 30 s.
    staleMs: 30_000,
    busy: (lock) =>
      new UsersFileError('busy', `users file ${file} is being changed by another command (${lock} exists)`),
    cannotLock: (error, lock) => readProblem(error, lock),
  })
}

async function change<T>(
  file: string,
  create: boolean,
  edit: (content: UsersFileContent) => Promise<T>,
): Promise<T> {
  if (create) await fs.mkdir(path.dirname(file), { recursive: true })
  return withLock(file, async () => {
    const content = await readUsersFile(file).catch((error: unknown) => {
      if (create && error instanceof UsersFileError && error.problem === 'missing')
        return { version: USERS_FILE_VERSION, users: [] } satisfies UsersFileContent
      throw error
    })
    const result = await edit(content)
    await writeFileAtomic(file, JSON.stringify(content, null, 2) + '\n', { mode: 0o600 })
    return result
  })
}

const newSecret = () => randomBytes(32).toString('base64url')

/** Add a user (creating the file if needed); its token and licence key are returned once, never stored. */
export async function addUser(
  file: string,
  input: { name: string; groups?: readonly Group[]; readOnly?: boolean },
  now: Date = new Date(),
): Promise<{ user: PublicUser; token: string; licenceKey: string }> {
  const name = checkUserName(input.name)
  const token = formatSecret('token', name, newSecret())
  const licenceKey = formatSecret('licence-key', name, newSecret())
  const [tokenHash, keyHash] = await Promise.all([hashSecret(token), hashSecret(licenceKey)])
  return change(file, true, async (content) => {
    const taken = content.users.find((u) => u.name === name)
    if (taken)
      throw new UsersFileError(
        'conflict',
        `user ${name} already exists${taken.revoked ? ' (revoked; its name stays taken)' : ''}`,
      )
    const record: UserRecord = {
      name,
      groups: GROUP_NAMES.filter((g) => (input.groups ?? GROUP_NAMES).includes(g)),
      readOnly: input.readOnly ?? false,
      created: now.toISOString(),
      token: tokenHash,
      licenceKey: keyHash,
    }
    content.users.push(record)
    return { user: publicUser(record), token, licenceKey }
  })
}

/** Revoke a user: its secrets stop being accepted by a running server within about half a second. */
export async function revokeUser(file: string, name: string, now: Date = new Date()): Promise<PublicUser> {
  return change(file, false, async (content) => {
    const user = content.users.find((u) => u.name === name)
    if (!user) throw new UsersFileError('not-found', `no user ${name.slice(0, 80)} in users file ${file}`)
    user.revoked ??= now.toISOString()
    return publicUser(user)
  })
}

export async function listUsers(file: string): Promise<PublicUser[]> {
  return (await readUsersFile(file)).users.map(publicUser)
}
