import { promises as fs } from 'node:fs'
import { X509Certificate } from 'node:crypto'
import { createSecureContext as tlsContext } from 'node:tls'

/** A TLS certificate or key file that cannot serve: names the file and what is wrong with it. */
export class TlsFilesError extends Error {
  constructor(
    message: string,
    readonly field: 'tls-cert' | 'tls-key',
  ) {
    super(message)
    this.name = 'TlsFilesError'
  }
}

async function readPem(file: string, what: string, field: 'tls-cert' | 'tls-key'): Promise<Buffer> {
  try {
    return await fs.readFile(file)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : code === 'EISDIR'
            ? 'it is a folder'
            : (code ?? (error as Error).message)
    throw new TlsFilesError(`cannot read the TLS ${what} ${file}: ${why}`, field)
  }
}

/**
 * The certificate chain and key of `--tls-cert`/`--tls-key`, read once at start and checked to belong
 * together, so a wrong file is reported before anything binds. Errors name the file, never its content.
 */
export async function readTlsFiles(
  certFile: string,
  keyFile: string,
): Promise<{ cert: Buffer; key: Buffer }> {
  const cert = await readPem(certFile, 'certificate', 'tls-cert')
  const key = await readPem(keyFile, 'key', 'tls-key')
  try {
    new X509Certificate(cert)
  } catch {
    throw new TlsFilesError(`the TLS certificate ${certFile} is not a PEM certificate`, 'tls-cert')
  }
  try {
    tlsContext({ key })
  } catch {
    throw new TlsFilesError(
      `the TLS key ${keyFile} is not a PEM private key (or it is encrypted: give an unencrypted key file readable only by the service's user)`,
      'tls-key',
    )
  }
  try {
    tlsContext({ cert, key })
  } catch {
    throw new TlsFilesError(
      `the TLS key ${keyFile} does not belong to the certificate ${certFile} (their public keys differ)`,
      'tls-key',
    )
  }
  return { cert, key }
}
