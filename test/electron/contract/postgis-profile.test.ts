import { describe, expect, it } from 'vitest'
import { operations, postgisFieldsSchema, validationFailure } from '../../../electron/contract'

const save = operations['settings.savePostgisProfile'].request
const good = { host: 'db.example.org', port: 5432, database: 'gis', user: 'analyst' }

/** The error a form shows for a request: the field named, and the message naming it. */
function refusal(postgis: Record<string, unknown>): { field?: string; message: string } {
  const parsed = save.safeParse({ name: 'Office', postgis })
  expect(parsed.success).toBe(false)
  if (parsed.success) throw new Error('accepted')
  const { error } = validationFailure(parsed.error)
  return { field: error.field, message: error.message }
}

describe('PostGIS workspace profile fields', () => {
  it("fills libpq's defaults: port 5432, schema public, sslmode prefer", () => {
    expect(postgisFieldsSchema.parse({ host: 'localhost', database: 'gis', user: 'me' })).toEqual({
      host: 'localhost',
      port: 5432,
      database: 'gis',
      user: 'me',
      schemas: ['public'],
      sslmode: 'prefer',
    })
  })

  it('takes host names, IPv4 and IPv6 addresses, and names PostgreSQL can hold', () => {
    for (const host of ['localhost', 'db-1.corp.example.org', '10.0.0.7', '::1', 'fe80::1']) {
      expect(save.safeParse({ name: 'Office', postgis: { ...good, host } }).success, host).toBe(true)
    }
    const unusual = { ...good, database: 'Straßen DB', user: "o'brien", schemas: ['Ref Data', 'ünïcødé'] }
    expect(save.safeParse({ name: 'Office', postgis: unusual }).success).toBe(true)
  })

  it('refuses a bad host, naming the field', () => {
    for (const host of ['', 'http://db.example.org', 'db.example.org:5432', 'db/gis', 'a b', '-db']) {
      const r = refusal({ ...good, host })
      expect(r.field, host).toBe('postgis.host')
      expect(r.message, host).toMatch(/^postgis\.host: host /)
    }
  })

  it('refuses a bad port, naming the field', () => {
    for (const port of [0, 65536, 5432.5, '5432', -1]) {
      const r = refusal({ ...good, port })
      expect(r.field, String(port)).toBe('postgis.port')
      expect(r.message).toMatch(/port must be a whole number from 1 to 65535/)
    }
  })

  it('refuses schema names PostgreSQL could not hold or the URI could not carry, naming the field', () => {
    const cases: [unknown, RegExp][] = [
      [[], /at least one schema/],
      [[''], /must not be empty/],
      [['x'.repeat(64)], /63-byte limit/],
      [['é'.repeat(32)], /63-byte limit/],
      [['a,b'], /comma/],
      [['bad\u0000name'], /control characters/],
      [['work', 'work'], /listed twice/],
      [['geo_analyst'], /bookkeeping/],
    ]
    for (const [schemas, why] of cases) {
      const r = refusal({ ...good, schemas })
      expect(r.field, JSON.stringify(schemas)).toMatch(/^postgis\.schemas/)
      expect(r.message, JSON.stringify(schemas)).toMatch(why)
    }
  })

  it('refuses an sslmode libpq does not know, and a password among the fields', () => {
    expect(refusal({ ...good, sslmode: 'on' })).toMatchObject({
      field: 'postgis.sslmode',
      message: expect.stringMatching(/sslmode must be one of disable, allow, prefer, require/),
    })
    expect(refusal({ ...good, password: 'secret' }).message).not.toContain('secret')
  })
})
