import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { extentOf, fieldType, geometryTypeName } from '../../../../electron/local-service/postgis/catalog'
import { resolveConnection, sslAttempts } from '../../../../electron/local-service/postgis/connection'
import { classifyDatabaseError } from '../../../../electron/local-service/postgis/errors'
import {
  describeWorkspace,
  isDatabaseWorkspace,
  parseWorkspaceUri,
} from '../../../../electron/local-service/postgis/uri'

describe('workspace URI', () => {
  it('reads user, host, port, database, schemas, sslmode and sslrootcert', () => {
    const uri = parseWorkspaceUri(
      'postgresql://ana@db.example:6543/gis?schema=work,ref&sslmode=verify-full&sslrootcert=/etc/ca.pem',
    )
    expect(uri).toEqual({
      user: 'ana',
      host: 'db.example',
      port: 6543,
      database: 'gis',
      schemas: ['work', 'ref'],
      sslmode: 'verify-full',
      sslrootcert: '/etc/ca.pem',
    })
  })

  it("defaults to libpq's sslmode prefer and the public schema", () => {
    expect(parseWorkspaceUri('postgres://h/db')).toMatchObject({ schemas: ['public'], sslmode: 'prefer' })
  })

  it('percent-decodes names as libpq does, keeping a + as a +', () => {
    const uri = parseWorkspaceUri('postgresql://J%C3%BCrgen@h/Gro%C3%9F%20DB?schema=My%20Data,a+b,%22q%22')
    expect(uri.user).toBe('Jürgen')
    expect(uri.database).toBe('Groß DB')
    expect(uri.schemas).toEqual(['My Data', 'a+b', '"q"'])
  })

  it('refuses a password in the authority or as a parameter, without repeating it', () => {
    for (const text of [
      'postgresql://ana:s3cret-value@h/db',
      'postgresql://ana@h/db?password=s3cret-value',
    ]) {
      let message = ''
      try {
        parseWorkspaceUri(text)
      } catch (error) {
        message = (error as Error).message
      }
      expect(message).toMatch(/must not contain a password.*PGPASSWORD/)
      expect(message).not.toContain('s3cret-value')
    }
  })

  it('refuses an unknown sslmode, unknown parameters, bad ports and impossible schema names', () => {
    expect(() => parseWorkspaceUri('postgresql://h/db?sslmode=maybe')).toThrow(/sslmode must be one of/)
    expect(() => parseWorkspaceUri('postgresql://h/db?options=-c%20x')).toThrow(/unknown parameter "options"/)
    expect(() => parseWorkspaceUri('postgresql://h:99999/db')).toThrow(/port must be 1–65535/)
    expect(() => parseWorkspaceUri('postgresql://h/db?schema=a,,b')).toThrow(/non-empty/)
    expect(() => parseWorkspaceUri(`postgresql://h/db?schema=${'s'.repeat(10_000)}`)).toThrow(/63-byte/)
    expect(() => parseWorkspaceUri('postgresql://h/db?schema=a%00b')).toThrow(/NUL/)
    expect(() => parseWorkspaceUri('postgresql://h/db?schema=a,a')).toThrow(/listed twice/)
    expect(() => parseWorkspaceUri('postgresql://h/db?schema=a&schema=b')).toThrow(/more than once/)
  })

  it('tells a database workspace from a folder and describes it without secrets', () => {
    expect(isDatabaseWorkspace('postgresql://h/db')).toBe(true)
    expect(isDatabaseWorkspace('POSTGRES://h/db')).toBe(true)
    expect(isDatabaseWorkspace('/home/ana/postgresql')).toBe(false)
    expect(isDatabaseWorkspace(undefined)).toBe(false)
    expect(describeWorkspace(parseWorkspaceUri('postgresql://ana@h:5/db?schema=a,b'))).toBe(
      'postgresql://ana@h:5/db?schema=a,b',
    )
  })
})

describe('connection settings as libpq resolves them', () => {
  it('takes the password from PGPASSWORD, the rest from the URI over PG* variables', () => {
    const c = resolveConnection(parseWorkspaceUri('postgresql://ana@h/db'), {
      PGPASSWORD: 'pw',
      PGHOST: 'other',
      PGPORT: '7000',
    })
    expect(c).toMatchObject({ user: 'ana', host: 'h', port: 7000, database: 'db', password: 'pw' })
  })

  it('reads a PGSERVICE section of the service file; the URI still wins', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'geo-pgservice-'))
    try {
      const file = path.join(dir, 'services.conf')
      writeFileSync(file, '# x\n[gis]\nhost=svc-host\nport=6000\ndbname=svcdb\nuser=svc\npassword=svcpw\n')
      const env = { PGSERVICEFILE: file, PGSERVICE: 'gis' }
      expect(resolveConnection(parseWorkspaceUri('postgresql:///?schema=a'), env)).toMatchObject({
        host: 'svc-host',
        port: 6000,
        database: 'svcdb',
        user: 'svc',
        password: 'svcpw',
      })
      expect(resolveConnection(parseWorkspaceUri('postgresql://ana@h/db'), env)).toMatchObject({
        host: 'h',
        user: 'ana',
        database: 'db',
      })
      expect(() => resolveConnection(parseWorkspaceUri('postgresql://h/db?service=nope'), env)).toThrow(
        /service "nope" is not defined/,
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("maps sslmode to TLS attempts in libpq's order", () => {
    expect(sslAttempts('disable')).toEqual([false])
    expect(sslAttempts('prefer')).toEqual([{ rejectUnauthorized: false }, false])
    expect(sslAttempts('allow')).toEqual([false, { rejectUnauthorized: false }])
    expect(sslAttempts('require')).toEqual([{ rejectUnauthorized: false }])
    const full = sslAttempts('verify-full')
    expect(full).toHaveLength(1)
    expect(full[0]).not.toHaveProperty('rejectUnauthorized')
  })
})

describe('connection problems in plain words', () => {
  const t = { host: 'db.example', port: 5433, database: 'gis', user: 'ana' }
  const cases: [unknown, string, RegExp][] = [
    [Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 'refused', /refused/],
    [
      new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })], ''),
      'refused',
      /db\.example:5433 refused/,
    ],
    [{ code: '28P01', message: 'password authentication failed' }, 'wrong-password', /wrong password/],
    [{ code: '3D000', message: 'database "gis" does not exist' }, 'database-missing', /"gis" does not exist/],
    [{ code: '42501', message: 'permission denied for schema s' }, 'no-permission', /no permission/],
    [
      { code: '42883', message: 'function st_estimatedextent(text) does not exist' },
      'postgis-missing',
      /PostGIS extension is not installed/,
    ],
    [
      new Error('SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string'),
      'no-password',
      /PGPASSWORD/,
    ],
    [new Error('The server does not support SSL connections'), 'tls', /does not offer TLS/],
    [Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }), 'host-unknown', /not known/],
  ]
  it.each(cases)('%s', (error, problem, words) => {
    const classified = classifyDatabaseError(error, t)
    expect(classified.problem).toBe(problem)
    expect(classified.message).toMatch(words)
  })
})

describe('catalog entries as the file workspace names them', () => {
  it('maps column types, geometry types and extents', () => {
    expect(fieldType('N')).toBe('number')
    expect(fieldType('B')).toBe('boolean')
    expect(fieldType('J')).toBe('json')
    expect(fieldType('A')).toBe('json')
    expect(fieldType('D')).toBe('string')
    expect(fieldType('G')).toBe('string')
    expect(geometryTypeName('MultiPolygonZ')).toBe('MULTIPOLYGON')
    expect(geometryTypeName('Geometry')).toBe('GEOMETRY')
    expect(geometryTypeName('PointM')).toBe('POINT')
    expect(extentOf('BOX(1 2,3 4)', 4326)).toEqual([1, 2, 3, 4])
    expect(extentOf('BOX(500000 0,600000 100000)', 0)).toBeNull()
    const m = extentOf('BOX(0 0,111319.49 111325.14)', 3857)!
    expect(m[2]).toBeCloseTo(1, 3)
    expect(m[3]).toBeCloseTo(1, 3)
    expect(extentOf(null, 4326)).toBeNull()
  })
})
