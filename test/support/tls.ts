import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

export interface TestPki {
  dir: string
  /** The throw-away CA's certificate (PEM text) and file. */
  caPem: string
  caFile: string
  /** The server certificate for 127.0.0.1 (signed by the CA) and its key. */
  certFile: string
  keyFile: string
  /** A second key that does not belong to `certFile`. */
  otherKeyFile: string
  remove(): Promise<void>
}

/** A throw-away CA and a server certificate for IP 127.0.0.1 and localhost, made with Debian's openssl. */
export async function makeTestPki(): Promise<TestPki> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'geo-pki-'))
  const f = (name: string) => path.join(dir, name)
  const ossl = (...args: string[]) => run('openssl', args, { cwd: dir })
  await ossl(
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    f('ca.key'),
    '-out',
    f('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=Geo Analyst test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  )
  await ossl(
    'req',
    '-new',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    f('server.key'),
    '-out',
    f('server.csr'),
    '-subj',
    '/CN=127.0.0.1',
  )
  await writeFile(
    f('ext.cnf'),
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n',
  )
  await ossl(
    'x509',
    '-req',
    '-in',
    f('server.csr'),
    '-CA',
    f('ca.pem'),
    '-CAkey',
    f('ca.key'),
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    f('ext.cnf'),
    '-out',
    f('server.pem'),
  )
  await ossl(
    'genpkey',
    '-algorithm',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-out',
    f('other.key'),
  )
  return {
    dir,
    caPem: await readFile(f('ca.pem'), 'utf8'),
    caFile: f('ca.pem'),
    certFile: f('server.pem'),
    keyFile: f('server.key'),
    otherKeyFile: f('other.key'),
    remove: () => rm(dir, { recursive: true, force: true }),
  }
}
