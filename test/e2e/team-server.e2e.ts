/// <reference lib="dom" />
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SAMPLE_DATASETS } from '../../electron/local-service/sample/sample-workspace'
import { drawPolygon, shownCount, tableRows } from '../support/analyst-loop'
import { openApp, openArea, pageProblems, useAppSession } from '../support/app'
import { runCliProcess, type CliRun } from '../support/cli'
import { keychainAvailability } from '../support/keychain'
import { postgresMissing, startTestCluster, type TestCluster } from '../support/postgres'
import {
  addTeamUser,
  setRemoteProfile,
  startTeamServer,
  type AddedUser,
  type TeamServerInstance,
} from '../support/team-server'
import { makeTestPki, type TestPki } from '../support/tls'

/**
 * Issue 32's team server, end to end: a throw-away PostGIS cluster holding the sample datasets, a users file
 * made with `geo-analyst users add` (ann read-write, rita read-only, bob to be revoked), and two instances
 * (`geo-analyst serve --listen 127.0.0.1:0 --tls-cert … --tls-key … --users … --workspace postgresql://…`)
 * over the same database, each its own process. The app (browser host, Chromium) connects to instance A
 * through a remote profile made in Settings (its server CA chosen as a file), joins and saves; the CLI
 * connects through remote profiles (`profile set … --ca-cert`) to either instance.
 */
const missing = postgresMissing()
const keychain = await keychainAvailability()
const SAMPLE_DIR = path.resolve(import.meta.dirname, '../../resources/sample')

/** A polygon over central-west India (lon/lat), for the CLI's joins. */
const AREA = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: {},
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [72, 18],
            [78, 18],
            [78, 24],
            [72, 24],
            [72, 18],
          ],
        ],
      },
    },
  ],
}

let cluster: TestCluster
let pki: TestPki
let dir: string
let usersFile: string
let users: Record<'ann' | 'rita' | 'bob', AddedUser>
let a: TeamServerInstance
let b: TeamServerInstance

/** The CLI of a person on another machine: its own config and data folders. */
const cliEnv = () => ({
  GEO_ANALYST_CONFIG_DIR: path.join(dir, 'cli-config'),
  GEO_ANALYST_DATA_DIR: path.join(dir, 'cli-data'),
})

/**
 * A CLI profile for `user` on `server`: `profile set NAME … --ca-cert FILE`, the user's token and licence key
 * with `secret set` into the keychain (when one answers; else, as the CLI says for scripts, in
 * GEO_ANALYST_TOKEN and GEO_ANALYST_LICENCE_KEY). Returns what each later call needs in its environment.
 */
async function cliProfile(
  name: string,
  server: TeamServerInstance,
  user: AddedUser,
): Promise<NodeJS.ProcessEnv> {
  const made = await setRemoteProfile(path.join(dir, 'cli-config'), name, server.urls, pki.caFile, cliEnv())
  expect(made.code, made.stderr).toBe(0)
  if (!keychain.available)
    return { ...cliEnv(), GEO_ANALYST_TOKEN: user.token, GEO_ANALYST_LICENCE_KEY: user.licenceKey }
  for (const [secret, value] of [
    ['token', user.token],
    ['licence-key', user.licenceKey],
  ] as const) {
    const set = await runCliProcess(['secret', 'set', secret, '--profile', name], {
      stdin: `${value}\n`,
      env: cliEnv(),
    })
    expect(set.code, set.stderr).toBe(0)
  }
  return cliEnv()
}

/** `geo-analyst call OPERATION … --profile NAME`, JSON on stdout. */
function call(env: NodeJS.ProcessEnv, profile: string, args: string[]): Promise<CliRun> {
  return runCliProcess(['call', ...args, '--profile', profile], { env, timeoutMs: 60_000 })
}

interface ListedDataset {
  layername: string
  owner?: string
}

function datasetsOf(run: CliRun): ListedDataset[] {
  expect(run.code, run.stderr).toBe(0)
  return (JSON.parse(run.stdout) as { layers: ListedDataset[] }).layers
}

/** A join of india_cities inside AREA, saved as `name` when given. */
function joinArgs(save?: string): string[] {
  return [
    'gis.join',
    'queryType=spatialOperation',
    'datasetSource=india_cities',
    'operator=Intersects',
    'sourceProperty=geom',
    'selectionParamSource=name,population,geom',
    'userGeom=true',
    ...(save ? ['saveAsNewDataset=true', `newDatasetNme=${save}`] : []),
    '--body',
    path.join(dir, 'area.geojson'),
  ]
}

describe.skipIf(missing)(
  `a team server of two instances over one PostGIS workspace${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    beforeAll(async () => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'geo-team-e2e-'))
      usersFile = path.join(dir, 'users.json')
      writeFileSync(path.join(dir, 'area.geojson'), JSON.stringify(AREA))
      ;[cluster, pki] = await Promise.all([startTestCluster(), makeTestPki()])
      await cluster.admin.query('CREATE DATABASE gis')
      const db = await cluster.connect('gis')
      await db.query('CREATE EXTENSION postgis; CREATE SCHEMA work')
      const env = { PGPASSWORD: cluster.password }
      const imports = await Promise.all(
        SAMPLE_DATASETS.map((sample) =>
          runCliProcess(
            [
              'import',
              path.join(SAMPLE_DIR, sample.file),
              '--name',
              sample.name,
              '--workspace',
              cluster.uri('gis', 'schema=work'),
            ],
            { env, timeoutMs: 120_000 },
          ),
        ),
      )
      for (const run of imports) expect(run.code, run.stderr).toBe(0)
      // The administrator adds the team's users; each one's secrets are printed once.
      users = {
        ann: await addTeamUser(usersFile, 'ann'),
        rita: await addTeamUser(usersFile, 'rita', { readOnly: true }),
        bob: await addTeamUser(usersFile, 'bob'),
      }
      const listed = await runCliProcess(['users', 'list', '--file', usersFile])
      expect(listed.code, listed.stderr).toBe(0)
      for (const user of Object.values(users)) expect(listed.stdout).not.toContain(user.token)
      expect(listed.stdout).toMatch(/rita\s.*read-only/)
      // Two instances over the same database, each with its own folder.
      const instance = (name: string) =>
        startTeamServer({
          workspaceUri: cluster.uri('gis', 'schema=work'),
          usersFile,
          certFile: pki.certFile,
          keyFile: pki.keyFile,
          workspaceDir: path.join(dir, `instance-${name}`),
          env: { PGPASSWORD: cluster.password, GEO_ANALYST_DATA_DIR: path.join(dir, `data-${name}`) },
        })
      ;[a, b] = await Promise.all([instance('a'), instance('b')])
      expect(a.port).not.toBe(b.port)
    }, 180_000)

    // Registered before the session's hooks, so (hooks after tests run last-registered first) the servers
    // and the cluster stop after the browser host.
    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()])
      await cluster?.stop()
      await pki?.remove()
      if (dir) rmSync(dir, { recursive: true, force: true })
    })

    const session = useAppSession()

    it("the app joins and saves through instance A's remote profile; instance B lists the dataset as ann's", async () => {
      const page = await openApp(session.browser, session.host)
      await page.getByRole('region', { name: 'Map' }).waitFor()

      // Settings → a new remote profile: the six base URLs of instance A and its CA certificate, as a file.
      await page.getByRole('banner').getByRole('button', { name: 'Settings' }).click()
      const settings = page.getByRole('dialog', { name: 'Settings' })
      await settings.getByRole('button', { name: 'New profile' }).click()
      const form = settings.getByRole('form', { name: 'New profile' })
      await form.getByRole('textbox', { name: 'Profile name' }).fill('Team')
      for (const [key, url] of Object.entries(a.urls))
        await form.getByRole('textbox', { name: key, exact: true }).fill(url)
      await form.getByLabel('Server CA certificate').setInputFiles(pki.caFile)
      await form.getByText(/Trusted for this profile: ca\.pem, SHA-256/).waitFor()
      await form.getByRole('button', { name: 'Save profile' }).click()
      await settings.getByRole('button', { name: 'Use Team' }).click()
      await settings.getByRole('heading', { name: 'Credentials of profile “Team”' }).waitFor()

      // ann's token and licence key, typed into the credential fields and saved.
      for (const [label, value] of [
        ['Bearer token (all groups)', users.ann.token],
        ['Distance-matrix licence key', users.ann.licenceKey],
      ] as const) {
        const field = settings.getByLabel(label, { exact: true })
        await field.fill(value)
        await settings.getByRole('button', { name: `Save ${label}` }).click()
        await expect.poll(() => field.inputValue()).toBe('')
      }
      expect(await page.content()).not.toContain(users.ann.token)
      await settings.getByRole('button', { name: 'Close Settings' }).click()
      await settings.waitFor({ state: 'hidden' })

      // Spatial analytics lists instance A's datasets (the database's tables).
      await openArea(page, 'Spatial analytics')
      const datasets = page.getByRole('list', { name: 'Datasets' })
      for (const sample of SAMPLE_DATASETS)
        await datasets.getByRole('listitem', { name: sample.name }).waitFor({ timeout: 30_000 })

      // Draw a polygon over central-west India and join india_cities with it, sent to instance A.
      await drawPolygon(page, [
        [0.3, 0.35],
        [0.5, 0.33],
        [0.52, 0.6],
        [0.32, 0.62],
      ])
      const join = page.getByRole('form', { name: 'Spatial join' })
      await join.getByRole('combobox', { name: 'Query type' }).selectOption('spatialOperation')
      await join.getByRole('combobox', { name: 'Source dataset' }).fill('india_cities')
      await join.getByRole('combobox', { name: 'Operator' }).selectOption('Intersects')
      await join.getByRole('textbox', { name: 'Selection (source)' }).fill('name,population,geom')
      await join.getByRole('checkbox', { name: 'Use drawn shapes' }).check()
      await join.getByRole('radio', { name: 'All drawn shapes' }).check()
      const preview = join.getByRole('region', { name: 'Request preview' })
      await expect
        .poll(() => preview.textContent(), { timeout: 10_000 })
        .toContain(`POST ${a.urls.mgis_url}/query_apply/join`)
      await join.getByRole('button', { name: 'Run join' }).click()
      const results = page.getByRole('region', { name: 'Results' })
      const count = results.getByRole('status').filter({ hasText: /\d rows?/ })
      await count.waitFor({ timeout: 30_000 })
      const total = shownCount((await count.textContent()) ?? '')
      expect(total).toBeGreaterThan(0)
      const table = page.getByRole('table', { name: 'Join results' })
      await expect.poll(async () => (await tableRows(table)).length).toBeGreaterThan(0)

      // Save the results as a new dataset: listed, saved by ann.
      const saved = `team_app_${Date.now().toString(36)}`
      await results.getByRole('button', { name: 'Save as dataset' }).click()
      await results.getByRole('textbox', { name: 'Saved dataset name' }).fill(saved)
      await results.getByRole('button', { name: 'Save results as dataset' }).click()
      await results.getByText(`Saved as dataset "${saved}".`).waitFor({ timeout: 30_000 })
      const item = datasets.getByRole('listitem', { name: saved })
      await item.waitFor({ timeout: 15_000 })
      await item.getByText('Saved by ann').waitFor({ timeout: 15_000 })
      expect(pageProblems(page)).toEqual([])
      await page.context().close()

      // Instance B, asked by the CLI through a profile of its own, lists it at once, owned by ann.
      const env = await cliProfile('TeamB-ann', b, users.ann)
      const listed = datasetsOf(await call(env, 'TeamB-ann', ['gis.layers']))
      expect(listed.find((d) => d.layername === saved)).toMatchObject({ owner: 'ann' })
      // The rows saved are those the app found.
      const db = await cluster.connect('gis')
      const rows = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM work."${saved}"`)
      expect(rows.rows[0]!.n).toBe(total)
    }, 120_000)

    it('the CLI through remote profiles: ann saves, rita is refused the save but lists, bob is refused once revoked', async () => {
      const [ann, rita, bob, bobOnB] = await Promise.all([
        cliProfile('TeamA-ann', a, users.ann),
        cliProfile('TeamB-rita', b, users.rita),
        cliProfile('TeamA-bob', a, users.bob),
        cliProfile('TeamB-bob', b, users.bob),
      ])

      // ann: a join that saves, through A; B lists the dataset with ann as its owner.
      const annSaved = `team_cli_${Date.now().toString(36)}`
      const joined = await call(ann, 'TeamA-ann', joinArgs(annSaved))
      expect(joined.code, joined.stderr).toBe(0)
      expect(JSON.parse(joined.stdout)).toMatchObject({ response: { savedDataset: annSaved } })
      expect(datasetsOf(await call(rita, 'TeamB-rita', ['gis.layers']))).toEqual(
        expect.arrayContaining([expect.objectContaining({ layername: annSaved, owner: 'ann' })]),
      )

      // rita is read-only: the same join without saving works, saving is refused (403) and nothing is made.
      const ritaJoin = await call(rita, 'TeamB-rita', joinArgs())
      expect(ritaJoin.code, ritaJoin.stderr).toBe(0)
      const ritaSaved = `team_rita_${Date.now().toString(36)}`
      const refused = await call(rita, 'TeamB-rita', joinArgs(ritaSaved))
      expect(refused.code).toBe(3)
      expect(refused.stderr).toMatch(/^geo-analyst: authorization-entitlement: .*HTTP 403/)
      expect(refused.stderr).toMatch(/user rita is read-only/)
      expect(refused.stderr).not.toContain(users.rita.token)
      const after = datasetsOf(await call(rita, 'TeamB-rita', ['gis.layers']))
      expect(after.map((d) => d.layername)).not.toContain(ritaSaved)

      // bob works until revoked; then both running servers refuse his token (401) without a restart.
      expect(datasetsOf(await call(bob, 'TeamA-bob', ['gis.layers'])).length).toBeGreaterThan(0)
      expect(datasetsOf(await call(bobOnB, 'TeamB-bob', ['gis.layers'])).length).toBeGreaterThan(0)
      const revoked = await runCliProcess(['users', 'revoke', 'bob', '--file', usersFile])
      expect(revoked.code, revoked.stderr).toBe(0)
      for (const [env, profile] of [
        [bob, 'TeamA-bob'],
        [bobOnB, 'TeamB-bob'],
      ] as const) {
        await expect
          .poll(async () => (await call(env, profile, ['gis.layers'])).code, { timeout: 10_000 })
          .toBe(3)
        const denied = await call(env, profile, ['gis.layers'])
        expect(denied.stderr).toMatch(/^geo-analyst: authentication: .*HTTP 401/)
        expect(denied.stderr).toMatch(/user bob was revoked/)
        expect(denied.stderr).not.toContain(users.bob.token)
      }
      // ann is not affected.
      expect(datasetsOf(await call(ann, 'TeamA-ann', ['gis.layers'])).length).toBeGreaterThan(0)
      // No secret in what the servers and the browser host printed.
      for (const output of [a.output(), b.output(), session.host.output()])
        for (const user of Object.values(users)) {
          expect(output).not.toContain(user.token)
          expect(output).not.toContain(user.licenceKey)
        }
    }, 120_000)
  },
)
