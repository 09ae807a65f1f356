import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  CommandLog,
  humanText,
  OUTPUT_TESTED,
  scriptJson,
  startCliProcess,
} from '../../../support/cli-script'
import { cli, tempDir } from '../cli-harness'

/**
 * `geo-analyst users add | list | revoke` (issue 32: the users of a team server), run through the CLI's
 * runner on a real users file, read as a script reads them: --json through JSON.parse, the text without it.
 */

const log = new CommandLog()
type Loose = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

async function setup() {
  const dir = await tempDir('geo-cli-users-')
  const file = path.join(dir, 'users.json')
  const env = { GEO_ANALYST_CONFIG_DIR: path.join(dir, 'config') }
  const run = (args: string[], extra: NodeJS.ProcessEnv = {}) => {
    log.note(args)
    return cli(args, { ...env, ...extra })
  }
  return { file, run }
}

describe('geo-analyst users', () => {
  it('add prints the token and licence key once; the file keeps neither; list never shows one', async () => {
    const { file, run } = await setup()
    const text = humanText(
      await run(['users', 'add', 'ann', '--groups', 'gis,places', '--file', file]),
      'users add',
      /^Added user ann \(read-write; groups places, gis\) to .*users\.json\.$/m,
      /^Token: +gat_ann_[A-Za-z0-9_-]{43}$/m,
      /^Licence key: +gak_ann_[A-Za-z0-9_-]{43}$/m,
    )
    const token = /gat_ann_\S+/.exec(text)![0]
    const added = scriptJson<Loose>(
      await run(['users', 'add', 'rita', '--read-only', '--json'], { GEO_ANALYST_USERS: file }),
      'users add --json',
    )
    expect(added).toMatchObject({
      name: 'rita',
      readOnly: true,
      groups: ['places', 'routing', 'gis', 'telematics', 'vision'],
      file,
    })
    expect(added.token).toMatch(/^gat_rita_[A-Za-z0-9_-]{43}$/)
    expect(added.licenceKey).toMatch(/^gak_rita_[A-Za-z0-9_-]{43}$/)

    const stored = await readFile(file, 'utf8')
    for (const secret of [token, added.token as string, added.licenceKey as string]) {
      expect(stored).not.toContain(secret)
      expect(stored).not.toContain(secret.slice(-43))
    }

    const list = await run(['users', 'list', '--file', file])
    humanText(
      list,
      'users list',
      /^ann +places,gis +read-write +created \S+Z$/m,
      /^rita +\S+ +read-only +created/m,
    )
    const listed = scriptJson<Loose>(
      await run(['users', 'list', '--file', file, '--json']),
      'users list --json',
    )
    expect(listed.users.map((u: Loose) => Object.keys(u).sort())).toEqual([
      ['created', 'groups', 'name', 'readOnly'],
      ['created', 'groups', 'name', 'readOnly'],
    ])
    for (const out of [list.stdout, JSON.stringify(listed)]) {
      expect(out).not.toContain(token)
      expect(out).not.toMatch(/hash|salt|gat_|gak_/)
    }
  })

  it('revoke marks the user revoked in the list; a taken name is a conflict, an unknown one not found', async () => {
    const { file, run } = await setup()
    expect((await run(['users', 'add', 'ann', '--file', file])).code).toBe(0)
    humanText(
      await run(['users', 'revoke', 'ann', '--file', file]),
      'users revoke',
      /^Revoked user ann \(\S+Z\);/m,
    )
    expect((await run(['users', 'add', 'bob', '--file', file])).code).toBe(0)
    const revoked = scriptJson<Loose>(
      await run(['users', 'revoke', 'bob', '--file', file, '--json']),
      'users revoke --json',
    )
    expect(revoked).toMatchObject({ name: 'bob', revoked: expect.stringMatching(/Z$/) })
    const listed = scriptJson<Loose>(
      await run(['users', 'list', '--file', file, '--json']),
      'users list --json',
    )
    expect(listed.users.map((u: Loose) => [u.name, typeof u.revoked])).toEqual([
      ['ann', 'string'],
      ['bob', 'string'],
    ])

    const taken = await run(['users', 'add', 'ann', '--file', file])
    expect(taken.code).toBe(5)
    expect(taken.stderr).toMatch(
      /^geo-analyst: conflict: user ann already exists \(revoked; its name stays taken\)$/m,
    )
    const unknown = await run(['users', 'revoke', 'carol', '--file', file])
    expect(unknown.code).toBe(4)
    expect(unknown.stderr).toMatch(/^geo-analyst: not-found: no user carol in users file /m)
    const badGroup = await run(['users', 'add', 'dan', '--groups', 'gis,maps', '--file', file])
    expect(badGroup.code).toBe(2)
    expect(badGroup.stderr).toMatch(/"maps" is not a group/)
  })

  it('says which file is missing: no --file and no GEO_ANALYST_USERS, or a file not there', async () => {
    const { file, run } = await setup()
    const none = await run(['users', 'list'])
    expect(none.code).toBe(2)
    expect(none.stderr).toMatch(/No users file: give --file USERS_FILE or set GEO_ANALYST_USERS/)
    const missing = await run(['users', 'list', '--file', file])
    expect(missing.code).toBe(4)
    expect(missing.stderr).toMatch(/users file .*users\.json does not exist/)
  })

  it('serve --users FILE accepts the users the commands added, and no other token', async () => {
    const { file, run } = await setup()
    const added = scriptJson<Loose>(
      await run(['users', 'add', 'ann', '--file', file, '--json']),
      'users add --json',
    )
    const workspace = path.join(path.dirname(file), 'workspace')
    const serve = startCliProcess(
      [
        'serve',
        '--port',
        '0',
        '--users',
        file,
        '--workspace',
        workspace,
        '--no-sample',
        '--token',
        'plain-token',
      ],
      {
        GEO_ANALYST_CONFIG_DIR: path.join(path.dirname(file), 'config'),
      },
    )
    try {
      const out = await serve.waitFor((text) => text.includes('Ctrl-C'))
      // No service secret is shown: only the users' secrets are accepted.
      expect(out).not.toMatch(/Generated (bearer token|licence key)/)
      expect(out).toContain(`Users: ${file}`)
      const list = /mgis_v2_url +(\S+)/.exec(out)![1] + '/getLayersList'
      const ok = await fetch(list, { headers: { authorization: `Bearer ${added.token as string}` } })
      // Past authentication: the empty workspace's list answers 404 no data found (§4.6).
      expect(ok.status).toBe(404)
      const plain = await fetch(list, { headers: { authorization: 'Bearer plain-token' } })
      expect(plain.status).toBe(401)
    } finally {
      expect(await serve.stop()).toBe(0)
    }
  }, 60_000)

  it('ran each of its commands here with --json and without', () => {
    expect(log.missing(OUTPUT_TESTED['users-output']!)).toEqual([])
  })
})
