import { describe, expect, it } from 'vitest'
import {
  isLoopback,
  ListenPolicyError,
  parseListen,
  planListen,
  type ListenRequest,
} from '../../../../electron/local-service/team/listen-policy'

const TLS = { tlsCert: '/etc/geo/cert.pem', tlsKey: '/etc/geo/key.pem' }

function refusal(request: ListenRequest): ListenPolicyError {
  try {
    planListen(request)
  } catch (error) {
    expect(error).toBeInstanceOf(ListenPolicyError)
    return error as ListenPolicyError
  }
  throw new Error(`planListen(${JSON.stringify(request)}) was not refused`)
}

describe('listen policy', () => {
  it('keeps today’s default: 127.0.0.1, --port or any free port, plain HTTP', () => {
    expect(planListen({})).toEqual({ host: '127.0.0.1', port: 0, loopback: true })
    expect(planListen({ port: 8080 })).toEqual({ host: '127.0.0.1', port: 8080, loopback: true })
  })

  it('lets loopback answer in plain HTTP, TLS optional', () => {
    for (const listen of [
      '127.0.0.1:8443',
      '127.1.2.3:0',
      'localhost:80',
      '[::1]:8443',
      '[::ffff:127.0.0.1]:1',
    ])
      expect(planListen({ listen }).loopback).toBe(true)
    expect(planListen({ listen: '127.0.0.1:8443', ...TLS })).toEqual({
      host: '127.0.0.1',
      port: 8443,
      loopback: true,
      tls: { certFile: TLS.tlsCert, keyFile: TLS.tlsKey },
    })
  })

  it('serves off loopback with TLS and a users file', () => {
    expect(planListen({ listen: '0.0.0.0:8443', ...TLS, users: '/etc/geo/users.json' })).toEqual({
      host: '0.0.0.0',
      port: 8443,
      loopback: false,
      tls: { certFile: TLS.tlsCert, keyFile: TLS.tlsKey },
      usersFile: '/etc/geo/users.json',
    })
    expect(planListen({ listen: '[2001:db8::5]:443', ...TLS, users: 'u.json' }).host).toBe('2001:db8::5')
    expect(planListen({ listen: 'geo.example.org:443', ...TLS, users: 'u.json' }).host).toBe(
      'geo.example.org',
    )
  })

  it('refuses plaintext off loopback, saying exactly what is missing', () => {
    const none = refusal({ listen: '0.0.0.0:0' })
    expect(none.message).toMatch(/^binding to 0\.0\.0\.0 needs --tls-cert and --tls-key and --users: /)
    expect(none.message).toMatch(/missing --tls-cert and --tls-key and --users$/)
    expect(none.field).toBe('tls-cert')
    const noUsers = refusal({ listen: '192.168.1.20:8443', ...TLS })
    expect(noUsers.message).toMatch(
      /^binding to 192\.168\.1\.20 needs --tls-cert and --tls-key and --users: /,
    )
    expect(noUsers.message).toMatch(/missing --users$/)
    expect(noUsers.field).toBe('users')
    const noTls = refusal({ listen: '[::]:8443', users: 'u.json' })
    expect(noTls.message).toMatch(/^binding to \[::\] needs --tls-cert and --tls-key and --users: /)
    expect(noTls.message).toMatch(/missing --tls-cert and --tls-key$/)
    expect(refusal({ listen: 'geo.example.org:443' }).message).toMatch(/^binding to geo\.example\.org needs/)
  })

  it('refuses half a TLS pair', () => {
    expect(refusal({ listen: '127.0.0.1:1', tlsCert: 'c.pem' }).message).toBe(
      '--tls-cert needs --tls-key (the private key of the certificate)',
    )
    expect(refusal({ listen: '0.0.0.0:1', tlsKey: 'k.pem', users: 'u' }).message).toBe(
      '--tls-key needs --tls-cert (the certificate of the key)',
    )
  })

  it('refuses a bad port or host with a clear validation error', () => {
    expect(refusal({ listen: '0.0.0.0:99999' }).message).toBe(
      '--listen "0.0.0.0:99999": the port must be a whole number 0–65535, not "99999"',
    )
    expect(refusal({ listen: '127.0.0.1:http' }).message).toMatch(/not "http"$/)
    expect(refusal({ listen: '127.0.0.1:' }).message).toMatch(/the port must be a whole number/)
    expect(refusal({ listen: ':8443' }).message).toBe(
      '--listen ":8443": the host is missing (e.g. 0.0.0.0:8443)',
    )
    expect(refusal({ listen: '::1:8443' }).message).toBe(
      '--listen "::1:8443": write an IPv6 address in brackets, e.g. [::1]:8443',
    )
    expect(refusal({ listen: '[::1:8443' }).message).toMatch(/needs its closing "\]"$/)
    expect(refusal({ listen: '[::1]8443' }).message).toMatch(/expected ":PORT" after "\[::1\]", not "8443"$/)
    expect(refusal({ listen: '[not-v6]:1' }).message).toMatch(/"not-v6" is not an IPv6 address$/)
    expect(refusal({ listen: 'bad_host!:1' }).message).toMatch(
      /"bad_host!" is not an IP address or host name$/,
    )
    expect(refusal({ listen: '   ' }).message).toMatch(/^--listen needs HOST:PORT/)
    expect(refusal({ listen: '127.0.0.1:1', port: 2 }).message).toBe(
      'give either --listen HOST:PORT or --port N, not both',
    )
    expect(refusal({ port: -1 }).message).toBe('--port must be an integer 0–65535, not "-1"')
    for (const error of [refusal({ listen: '0.0.0.0:99999' }), refusal({ listen: ':1' })])
      expect(error.field).toBe('listen')
  })

  it('parses IPv6 in brackets and a host alone', () => {
    expect(parseListen('[::1]:8443')).toEqual({ host: '::1', port: 8443 })
    expect(parseListen('[fe80::1]')).toEqual({ host: 'fe80::1', port: 0 })
    expect(parseListen('localhost')).toEqual({ host: 'localhost', port: 0 })
  })

  it('knows loopback from the rest', () => {
    for (const host of ['127.0.0.1', '127.255.0.9', '::1', '0:0:0:0:0:0:0:1', 'localhost', 'LOCALHOST'])
      expect(isLoopback(host), host).toBe(true)
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '128.0.0.1', '::2', 'example.org', '::ffff:10.0.0.1'])
      expect(isLoopback(host), host).toBe(false)
  })
})
