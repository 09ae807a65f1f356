import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COMMANDS } from '../../../../electron/cli/commands'
import { PROJECT_FORMAT } from '../../../../electron/contract'
import { MemorySecretStore } from '../../../../electron/core/secrets/memory-secret-store'
import { runCliProcess } from '../../../support/cli'
import {
  CommandLog,
  humanText,
  OUTPUT_TESTED,
  SCRIPT_TOKEN,
  scriptJson,
  startCliProcess,
  startScriptService,
  type ScriptService,
} from '../../../support/cli-script'
import { keychainAvailability } from '../../../support/keychain'
import { cli } from '../cli-harness'

/**
 * The app's own commands — profile, secret, history, project, serve — read as a script reads them: --json
 * through JSON.parse, the text without it. And every command of `geo-analyst` has such a test somewhere.
 */

let svc: ScriptService
const store = new MemorySecretStore()
const log = new CommandLog()
const keychain = await keychainAvailability()
type Loose = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

/** Run in this process on the file's config (profiles made here stay out of the service's env). */
function run(args: string[], env: NodeJS.ProcessEnv = svc.env) {
  log.note(args)
  return cli(args, env, store)
}

let profiles: NodeJS.ProcessEnv

beforeAll(async () => {
  svc = await startScriptService({})
  profiles = { ...svc.env, GEO_ANALYST_CONFIG_DIR: path.join(svc.dir, 'profiles') }
}, 60_000)
afterAll(() => svc?.close())

describe('geo-analyst profile', () => {
  it('set, list, show, use, delete: the settings as JSON, sentences and lines as text', async () => {
    humanText(
      await run(['profile', 'set', 'Other', ...svc.profileFlags], profiles),
      'profile set',
      /^Saved profile Other\.$/m,
    )
    const saved = scriptJson<Loose>(
      await run(['profile', 'set', 'Another', ...svc.profileFlags, '--json'], profiles),
      'profile set --json',
    )
    expect(saved).toEqual({ name: 'Another', builtIn: false, urls: svc.service.urls })

    const list = scriptJson<Loose>(await run(['profile', 'list', '--json'], profiles), 'profile list --json')
    expect(list).toMatchObject({ activeProfile: 'Local' })
    expect(list.profiles.map((p: Loose) => p.name)).toEqual(['Local', 'Other', 'Another'])
    humanText(
      await run(['profile', 'list'], profiles),
      'profile list',
      /^\* Local$/m,
      /^ {2}Other$/m,
      /^ {2}Another$/m,
    )

    const shown = scriptJson<Loose>(
      await run(['profile', 'show', 'Other', '--json'], profiles),
      'profile show --json',
    )
    expect(shown).toEqual({ name: 'Other', builtIn: false, urls: svc.service.urls })
    humanText(
      await run(['profile', 'show', 'Other'], profiles),
      'profile show',
      /^ {2}Other$/m,
      `    mgis_v2_url      ${svc.service.urls.mgis_v2_url}`,
      `    telematics_url   ${svc.service.urls.telematics_url}`,
    )

    humanText(await run(['profile', 'use', 'Other'], profiles), 'profile use', /^Active profile: Other$/m)
    const used = scriptJson<Loose>(
      await run(['profile', 'use', 'Local', '--json'], profiles),
      'profile use --json',
    )
    expect(used.activeProfile).toBe('Local')

    humanText(
      await run(['profile', 'delete', 'Another'], profiles),
      'profile delete',
      /^Deleted profile Another\.$/m,
    )
    const left = scriptJson<Loose>(
      await run(['profile', 'delete', 'Other', '--json'], profiles),
      'profile delete --json',
    )
    expect(left.profiles.map((p: Loose) => p.name)).toEqual(['Local'])
  })
})

describe('geo-analyst secret', () => {
  it('status and clear: the status as JSON, one line a credential as text (never a value)', async () => {
    await store.set('Local:token.gis', 'a-secret-value-0001')
    const status = scriptJson<Loose>(
      await run(['secret', 'status', '--json'], profiles),
      'secret status --json',
    )
    expect(status).toMatchObject({ profile: 'Local', store: 'session-memory' })
    expect(status.credentials).toEqual(
      expect.arrayContaining([
        { name: 'token', set: false },
        expect.objectContaining({ name: 'token.gis', set: true }),
      ]),
    )
    humanText(
      await run(['secret', 'status'], profiles),
      'secret status',
      /^Profile Local, stored for this session only \(no keychain\):$/m,
      /^ {2}token\.gis\s+set/m,
      /^ {2}licence-key\s+not set$/m,
    )
    humanText(
      await run(['secret', 'clear', 'token.gis'], profiles),
      'secret clear',
      /^Credential token\.gis cleared for profile Local\.$/m,
    )
    const cleared = scriptJson<Loose>(
      await run(['secret', 'clear', 'licence-key', '--json'], profiles),
      'secret clear --json',
    )
    expect(cleared.credentials).toEqual(expect.arrayContaining([{ name: 'token.gis', set: false }]))
    expect(JSON.stringify(status) + JSON.stringify(cleared)).not.toContain('a-secret-value-0001')
  })

  it.skipIf(!keychain.available)(
    `set (the OS keychain${keychain.available ? '' : `: ${keychain.reason}`}): the status as JSON, a sentence as text`,
    async () => {
      const env = { GEO_ANALYST_CONFIG_DIR: path.join(svc.dir, 'keychain-config') }
      const value = `cli-output-secret-${Date.now()}`
      for (const args of [
        ['secret', 'set', 'token.vision'],
        ['secret', 'set', 'token.places', '--json'],
      ])
        log.note(args)
      const set = await runCliProcess(['secret', 'set', 'token.vision'], { stdin: value, env })
      humanText(set, 'secret set', /^Credential token\.vision set for profile Local in the OS keychain\.$/m)
      const json = scriptJson<Loose>(
        await runCliProcess(['secret', 'set', 'token.places', '--json'], { stdin: value, env }),
        'secret set --json',
      )
      expect(json).toMatchObject({ profile: 'Local', store: 'keychain' })
      expect(json.credentials).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: 'token.vision', set: true }),
          expect.objectContaining({ name: 'token.places', set: true }),
        ]),
      )
      expect(set.stdout + JSON.stringify(json)).not.toContain(value)
      for (const name of ['token.vision', 'token.places'])
        expect((await runCliProcess(['secret', 'clear', name], { env })).code).toBe(0)
    },
    60_000,
  )

  it.skipIf(keychain.available)('set without a keychain: refused on stderr, nothing on stdout', async () => {
    for (const args of [
      ['secret', 'set', 'token'],
      ['secret', 'set', 'token', '--json'],
    ]) {
      const refused = await run(args, profiles)
      expect(refused.code).toBe(2)
      expect(refused.stdout).toBe('')
      expect(refused.stderr).toMatch(/^geo-analyst: (validation|local-configuration): /)
    }
  })
})

describe('geo-analyst history', () => {
  it('the calls as an array in JSON, one line a call as text, never a credential', async () => {
    expect((await cli(['call', 'gis.layers'], svc.env)).code).not.toBe(0) // an empty workspace: 404
    expect((await cli(['call', 'telematics.hardware'], svc.env)).code).toBe(0)
    const entries = scriptJson<Loose[]>(await run(['history', '--json']), 'history --json')
    expect(Array.isArray(entries)).toBe(true)
    expect(entries.map((e) => e.operation)).toEqual(['telematics.hardware', 'gis.layers'])
    expect(entries[0]).toMatchObject({
      time: expect.any(String),
      method: 'GET',
      url: `${svc.service.urls.telematics_url}/devices/hardwareinfo`,
      status: 200,
      attempts: 1,
      durationMs: expect.any(Number),
    })
    expect(entries[1]).toMatchObject({ status: 404, failureClass: 'not-found' })
    const text = humanText(
      await run(['history']),
      'history',
      /^\d{4}-\d\d-\d\dT[\d:.]+Z {2}telematics\.hardware\s+200\s+ok\s+1 att {2}\d+ ms {2}http:\/\/127\.0\.0\.1:\d+\/telematics\/devices\/hardwareinfo$/m,
      /^\S+ {2}gis\.layers\s+404\s+not-found\s+/m,
    )
    expect(text + JSON.stringify(entries)).not.toContain(SCRIPT_TOKEN)
  })
})

describe('geo-analyst project', () => {
  const project = {
    format: PROJECT_FORMAT,
    version: 1,
    title: 'Wells',
    savedAt: '2025-01-01T00:00:00.000Z',
    view: { center: [77.5, 23.25], zoom: 6, rotation: 0 },
    layers: [
      {
        id: 'gis.dataset:wells',
        title: 'Wells',
        kind: 'dataset',
        area: 'gis',
        ref: 'wells',
        visible: true,
        opacity: 0.5,
        style: null,
      },
    ],
    areas: {},
  }

  it('list and check: the projects and the project as JSON, lines as text', async () => {
    const projects = path.join(svc.env.GEO_ANALYST_DATA_DIR!, 'projects')
    await mkdir(projects, { recursive: true })
    const file = path.join(projects, 'Wells.geoproject.json')
    await writeFile(file, JSON.stringify(project))
    const listed = scriptJson<Loose>(await run(['project', 'list', '--json']), 'project list --json')
    expect(listed).toMatchObject({
      projects: [{ name: 'Wells', savedAt: expect.any(String), bytes: expect.any(Number) }],
      last: null,
    })
    humanText(await run(['project', 'list']), 'project list', /^ {2}Wells {2}\S+ {2}\d+ bytes$/m)

    const checked = scriptJson<Loose>(await run(['project', 'check', file, '--json']), 'project check --json')
    expect(checked).toMatchObject({ ok: true, project: { title: 'Wells', layers: [{ ref: 'wells' }] } })
    humanText(
      await run(['project', 'check', file]),
      'project check',
      `${file}: project format 1, "Wells", saved 2025-01-01T00:00:00.000Z`,
      /^view: 77\.5000, 23\.2500 at zoom 6\.0$/m,
      /^ {2}Wells \(gis dataset wells\), opacity 50%$/m,
    )
  })
})

describe('geo-analyst serve (a separate process that goes on running)', () => {
  const env = { GEO_ANALYST_TOKEN: '', GEO_ANALYST_LICENCE_KEY: '' }

  it('--json: one JSON document with the six base URLs and the generated credentials, then serves', async () => {
    log.note(['serve', '--json'])
    const workspace = path.join(svc.dir, 'serve-json')
    const serve = startCliProcess(
      ['serve', '--port', '0', '--workspace', workspace, '--no-sample', '--json'],
      env,
    )
    try {
      const out = await serve.waitFor(isJsonDocument)
      const started = scriptJson<Loose>({ code: 0, stdout: out, stderr: '' }, 'serve --json')
      expect(Object.keys(started.urls).sort()).toEqual([
        'advancedmaps_url',
        'aiml_url',
        'atlas_url',
        'mgis_url',
        'mgis_v2_url',
        'telematics_url',
      ])
      expect(started).toMatchObject({
        workspace,
        port: expect.any(Number),
        generated: { token: expect.any(String), licenceKey: expect.any(String) },
      })
      const answer = await fetch(`${started.urls.mgis_v2_url}/getLayersList`, {
        headers: { authorization: `Bearer ${started.generated.token}` },
      })
      expect(answer.status).toBe(404) // an empty workspace
    } finally {
      expect(await serve.stop()).toBe(0)
    }
    // Nothing after the document on stdout: it stays one JSON document.
    expect(isJsonDocument(serve.stdout())).toBe(true)
  }, 60_000)

  it('without --json: the base URLs and the generated token as lines', async () => {
    log.note(['serve'])
    const serve = startCliProcess(
      ['serve', '--port', '0', '--workspace', path.join(svc.dir, 'serve-text'), '--no-sample'],
      env,
    )
    try {
      const out = await serve.waitFor((text) => text.includes('Ctrl-C'))
      humanText(
        { code: 0, stdout: out, stderr: '' },
        'serve',
        /^Local service on 127\.0\.0\.1:\d+, workspace .*serve-text$/m,
        /^ {2}atlas_url {8}http:\/\/127\.0\.0\.1:\d+\/\S+$/m,
        /^ {2}mgis_v2_url {6}http:\/\/127\.0\.0\.1:\d+\/\S+$/m,
        /^Generated bearer token: \S+$/m,
        /^Press Ctrl-C to stop\.$/m,
      )
    } finally {
      expect(await serve.stop()).toBe(0)
    }
  }, 60_000)
})

function isJsonDocument(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

describe('every command of geo-analyst', () => {
  it('has its output read as a script reads it, with --json and without, in one of the output tests', () => {
    expect(Object.values(OUTPUT_TESTED).flat().sort()).toEqual(COMMANDS.map((c) => c.name).sort())
  })

  it('ran each of its commands here with --json and without', () => {
    expect(log.missing(OUTPUT_TESTED['app-output']!)).toEqual([])
  })
})
