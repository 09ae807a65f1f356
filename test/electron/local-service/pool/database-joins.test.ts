import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLocalService, type LocalService } from '../../../../electron/local-service/index'
import {
  postgresMissing,
  startTestCluster,
  type TestCluster,
  SLOW_JOIN_WORKSPACE_SQL,
} from '../../../support/postgres'
import { bearer, teamUsers } from '../team/team-users'

/**
 * The dataset list of a PostGIS workspace while the workspace's connections are wanted by slow joins: the
 * joins take their turn for at most three of its four connections, so the list never waits behind them;
 * joins not known to be small (a view has no statistics) take at most two, the third kept for small joins.
 * Between the users of a team server, a short join does not wait behind another user's long ones, and a
 * user past their limit gets 429. A
 * throw-away cluster (skipped, saying why, where PostGIS is not installed).
 */
const missing = postgresMissing()
const TOKEN = 'database-joins-token'

let cluster: TestCluster
let service: LocalService
let team: LocalService
let teamB: LocalService
let tokens: Record<string, string>
let dir: string

const sql = (text: string, values?: unknown[]) => cluster.query('gis', text, values)

const slow = new URLSearchParams({
  queryType: 'spatialOperation',
  datasetSource: 'sleepy',
  datasetRef: 'zones',
  operator: 'Within',
  sourceProperty: 'geom',
  selectionParamSource: 'id',
})

const activeJoins = async () =>
  Number(
    (
      await sql(
        `SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'geo-analyst' AND query LIKE '%sleepy%' AND state = 'active'`,
      )
    )[0]!.n,
  )

/** Until `test` holds, for at most 10 s. */
async function until(test: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100 && !(await test()); i++) await new Promise((resolve) => setTimeout(resolve, 100))
}

describe.skipIf(missing)(
  `database joins and the dataset list${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    beforeAll(async () => {
      cluster = await startTestCluster()
      await cluster.admin.query('CREATE DATABASE gis')
      await sql(SLOW_JOIN_WORKSPACE_SQL)
      dir = mkdtempSync(path.join(os.tmpdir(), 'geo-pg-fair-'))
      service = await startLocalService({
        workspaceDir: dir,
        databaseUri: cluster.uri('gis', 'schema=work'),
        env: { PGPASSWORD: cluster.password },
        token: TOKEN,
        sampleData: false,
      })
      const users = await teamUsers(dir)
      tokens = users.tokens
      // Two instances of the team server over the same database and users file.
      const instance = (folder: string, pool: { perUserQueue?: number } = {}) =>
        startLocalService({
          workspaceDir: path.join(dir, folder),
          databaseUri: cluster.uri('gis', 'schema=work'),
          env: { PGPASSWORD: cluster.password },
          usersFile: users.file,
          sampleData: false,
          pool,
        })
      team = await instance('team', { perUserQueue: 4 })
      teamB = await instance('team-b')
    }, 180_000)
    afterAll(async () => {
      await teamB?.close()
      await team?.close()
      await service?.close()
      await cluster?.stop()
      if (dir) rmSync(dir, { recursive: true, force: true })
    }, 60_000)

    it('answers the dataset list while six slow joins want the connections, before any of them ends', async () => {
      const leave = new AbortController()
      let joinsSettled = 0
      const joins = Array.from({ length: 6 }, () =>
        fetch(`${service.urls.mgis_url}/query_apply/join?${slow}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}` },
          signal: leave.signal,
        })
          .catch(() => undefined)
          .finally(() => joinsSettled++),
      )
      try {
        for (let i = 0; i < 100 && (await activeJoins()) < 2; i++)
          await new Promise((resolve) => setTimeout(resolve, 100))
        // Time for a fourth statement to start, were the joins let through.
        await new Promise((resolve) => setTimeout(resolve, 500))
        const list = await fetch(`${service.urls.mgis_v2_url}/getLayersList`, {
          headers: { authorization: `Bearer ${TOKEN}` },
          signal: AbortSignal.timeout(10_000),
        })
        const text = await list.text()
        expect(list.status, text).toBe(200)
        expect(text).toContain('zones')
        expect(joinsSettled).toBe(0)
        // Two joins hold connections (the third place is kept for small joins); the other four wait their
        // turn in the service, not in the database.
        expect(await activeJoins()).toBe(2)
        expect(service.poolStats().database).toEqual({ running: 2, queued: 4 })
      } finally {
        leave.abort()
      }
      // The clients left: the running statements are cancelled, the waiting joins leave their queue.
      await Promise.all(joins)
      await until(async () => (await activeJoins()) === 0)
      expect(await activeJoins()).toBe(0)
    }, 60_000)

    it('the single-token service keeps the whole queue for its one user: 18 joins waiting, no 429', async () => {
      const leave = new AbortController()
      const statuses: number[] = []
      const joins = Array.from({ length: 20 }, () =>
        fetch(`${service.urls.mgis_url}/query_apply/join?${slow}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}` },
          signal: leave.signal,
        })
          .then((response) => statuses.push(response.status))
          .catch(() => undefined),
      )
      try {
        for (let i = 0; i < 100 && service.poolStats().database.queued < 18 && statuses.length === 0; i++)
          await new Promise((resolve) => setTimeout(resolve, 50))
        expect(statuses).toEqual([])
        expect(service.poolStats().database).toEqual({ running: 2, queued: 18 })
      } finally {
        leave.abort()
      }
      await Promise.all(joins)
      // Every statement of a client that left is cancelled, whenever it left (waiting, preparing, running).
      await until(async () => (await activeJoins()) === 0)
      expect(await activeJoins()).toBe(0)
    }, 60_000)

    it('a team server: another user’s short join does not wait behind a user with many long ones; past their limit a user gets 429', async () => {
      const leave = new AbortController()
      const call = (user: string, query: URLSearchParams, signal: AbortSignal) =>
        fetch(`${team.urls.mgis_url}/query_apply/join?${query}`, {
          method: 'POST',
          headers: bearer(tokens[user]!),
          signal,
        })
      // ann: one long join runs (one at a time for each user of a team server), four wait (her limit).
      const ann = Array.from({ length: 5 }, () => call('ann', slow, leave.signal).catch(() => undefined))
      try {
        for (let i = 0; i < 100 && team.poolStats().database.queued < 4; i++)
          await new Promise((resolve) => setTimeout(resolve, 50))
        expect(team.poolStats().database).toEqual({ running: 1, queued: 4 })
        const limited = await call('ann', slow, AbortSignal.timeout(10_000))
        expect(limited.status).toBe(429)
        expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
        const body = (await limited.json()) as Record<string, unknown>
        expect(body).toMatchObject({ code: '429', success: false })
        expect(body.message).toMatch(/user "ann".*perUserQueue 4/)
        // bob's quick join (a table of 100 rows: small by its own statistics) takes the place kept for
        // small joins at once, while every one of ann's still runs or waits.
        const quick = new URLSearchParams(slow)
        quick.set('datasetSource', 'places')
        const answer = await call('bob', quick, AbortSignal.timeout(20_000))
        expect(answer.status).toBe(200)
        await answer.arrayBuffer()
        expect(team.poolStats().database).toEqual({ running: 1, queued: 4 })
        expect(await activeJoins()).toBe(1)
        // rita's long join does not wait behind ann's either: the second place for long joins is hers.
        const rita = call('rita', slow, leave.signal).catch(() => undefined)
        for (let i = 0; i < 100 && (await activeJoins()) < 2; i++)
          await new Promise((resolve) => setTimeout(resolve, 50))
        expect(team.poolStats().database).toEqual({ running: 2, queued: 4 })
        ann.push(rita)
      } finally {
        leave.abort()
      }
      await Promise.all(ann)
      await until(async () => (await activeJoins()) === 0)
    }, 60_000)

    it('a team server’s user runs one large join at a time across its instances; another user’s goes in', async () => {
      const call = (to: LocalService, user: string, signal: AbortSignal) =>
        fetch(`${to.urls.mgis_url}/query_apply/join?${slow}`, {
          method: 'POST',
          headers: bearer(tokens[user]!),
          signal,
        }).catch(() => undefined)
      const waitingForLock = async () =>
        Number(
          (
            await sql(
              `SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'geo-analyst'
                  AND wait_event_type = 'Lock' AND query LIKE '%pg_advisory_lock%'`,
            )
          )[0]!.n,
        )
      const leaveA = new AbortController()
      const leave = new AbortController()
      const joins: Promise<unknown>[] = []
      try {
        joins.push(call(team, 'ann', leaveA.signal))
        await until(async () => (await activeJoins()) === 1)
        // ann's second large join, through the other instance, waits for her first in the database.
        joins.push(call(teamB, 'ann', leave.signal))
        await until(async () => (await waitingForLock()) === 1)
        expect(await waitingForLock()).toBe(1)
        expect(await activeJoins()).toBe(1)
        // bob's goes in at once beside it.
        joins.push(call(teamB, 'bob', leave.signal))
        await until(async () => (await activeJoins()) === 2)
        expect(await activeJoins()).toBe(2)
        // ann leaves her first join: it is cancelled, and her second starts.
        leaveA.abort()
        await until(async () => (await waitingForLock()) === 0 && (await activeJoins()) === 2)
        expect(await waitingForLock()).toBe(0)
        expect(await activeJoins()).toBe(2)
      } finally {
        leaveA.abort()
        leave.abort()
      }
      await Promise.all(joins)
      await until(async () => (await activeJoins()) === 0)
      expect(await activeJoins()).toBe(0)
    }, 60_000)
  },
)
