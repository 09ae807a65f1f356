import { createHash } from 'node:crypto'
import { promises as fs } from 'node:fs'
import {
  hashSecret,
  parseSecret,
  readUsersFileStamped,
  stampOf,
  verifySecret,
  type SecretHash,
  type SecretKind,
  type UserRecord,
} from './users-file'

export type Verification =
  | { ok: true; user: UserRecord }
  | { ok: false; reason: 'wrong' }
  | { ok: false; reason: 'revoked'; user: UserRecord }

export interface UserDirectoryOptions {
  /** How often, at most, the file's identity (inode, size, mtime) is looked at (default 500 ms). */
  checkIntervalMs?: number
  /** Where a file that cannot be read any more is reported (never with a secret); default console.warn. */
  log?: (line: string) => void
  /** Verified secrets remembered at most (default 10,000). */
  cacheEntries?: number
  now?: () => number
}

/**
 * The users of a users file as a running server sees them: read at the start (a file that cannot be read
 * fails the start), then re-read when it changes, so `users revoke` takes effect without a restart. A file
 * that becomes unreadable or invalid keeps the last good users, and says so once.
 *
 * A secret verified once is remembered by a SHA-256 of it until the file changes, so scrypt runs once per
 * secret and file version, not per request.
 */
export class UserDirectory {
  private users = new Map<string, UserRecord>()
  private stamp = ''
  private lastCheck = 0
  private checking: Promise<void> | undefined
  private lastProblem = ''
  private readonly verified = new Map<string, string>()
  private readonly interval: number
  private readonly log: (line: string) => void
  private readonly cacheEntries: number
  private readonly now: () => number

  private constructor(
    readonly file: string,
    options: UserDirectoryOptions,
  ) {
    this.interval = options.checkIntervalMs ?? 500
    this.log = options.log ?? ((line) => console.warn(line))
    this.cacheEntries = options.cacheEntries ?? 10_000
    this.now = options.now ?? Date.now
  }

  /** Read the users file; throws a `UsersFileError` naming the problem when it cannot be used. */
  static async open(file: string, options: UserDirectoryOptions = {}): Promise<UserDirectory> {
    const directory = new UserDirectory(file, options)
    await directory.load()
    return directory
  }

  /** How many users the last good read held (revoked included). */
  get size(): number {
    return this.users.size
  }

  private async load(): Promise<void> {
    const { content, stamp } = await readUsersFileStamped(this.file)
    this.users = new Map(content.users.map((u) => [u.name, u]))
    this.stamp = stamp
    this.lastCheck = this.now()
    this.verified.clear()
    this.lastProblem = ''
  }

  /** Re-read the file when it changed since the last look (looked at, at most, every `checkIntervalMs`). */
  refresh(): Promise<void> {
    if (this.now() - this.lastCheck < this.interval) return Promise.resolve()
    this.checking ??= this.check().finally(() => {
      this.checking = undefined
    })
    return this.checking
  }

  private async check(): Promise<void> {
    this.lastCheck = this.now()
    try {
      const stat = await fs.stat(this.file)
      if (stampOf(stat) === this.stamp && !this.lastProblem) return
      await this.load()
    } catch (error) {
      const problem = error instanceof Error ? error.message : String(error)
      if (problem !== this.lastProblem) {
        this.lastProblem = problem
        this.log(
          `geo-analyst serve: ${problem.replace(/^ENOENT.*/, `users file ${this.file} does not exist`)}; ` +
            `keeping the ${this.users.size} users read before`,
        )
      }
    }
  }

  /** Whether `presented` is the `kind` secret of a user of the file, and that user. */
  async verify(presented: string, kind: SecretKind): Promise<Verification> {
    await this.refresh()
    const parsed = parseSecret(presented)
    const user = parsed?.kind === kind ? this.users.get(parsed.name) : undefined
    if (!user) {
      // As much work as a real check, so the answer's time does not tell which names exist.
      await verifySecret(presented, await dummyHash())
      return { ok: false, reason: 'wrong' }
    }
    const digest = createHash('sha256').update(presented).digest('base64url')
    const stamp = this.stamp
    if (this.verified.get(digest) !== `${kind}:${user.name}`) {
      const stored = kind === 'token' ? user.token : user.licenceKey
      if (!(await verifySecret(presented, stored))) return { ok: false, reason: 'wrong' }
      // Only remember it against the file version it was checked with.
      if (stamp === this.stamp) this.remember(digest, `${kind}:${user.name}`)
    }
    const current = this.users.get(user.name) ?? user
    if (current.revoked) return { ok: false, reason: 'revoked', user: current }
    return { ok: true, user: current }
  }

  private remember(digest: string, value: string): void {
    if (this.verified.size >= this.cacheEntries) {
      const oldest = this.verified.keys().next().value
      if (oldest !== undefined) this.verified.delete(oldest)
    }
    this.verified.set(digest, value)
  }
}

let dummy: Promise<SecretHash> | undefined
const dummyHash = () => (dummy ??= hashSecret('no user has this secret'))
