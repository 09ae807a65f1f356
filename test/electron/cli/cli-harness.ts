import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PassThrough, Writable } from 'node:stream'
import { runCli } from '../../../electron/cli/run'
import type { SecretStore } from '../../../electron/core/secrets/secret-store'

export interface CliRun {
  code: number
  stdout: string
  stderr: string
}

export function collector(): Writable & { text: () => string } {
  const chunks: Buffer[] = []
  const w = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(Buffer.from(chunk))
      cb()
    },
  }) as Writable & { text: () => string }
  w.text = () => Buffer.concat(chunks).toString('utf8')
  return w
}

export async function tempDir(prefix: string): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), prefix))
}

export async function cli(
  argv: string[],
  env: NodeJS.ProcessEnv,
  secretStore?: SecretStore,
): Promise<CliRun> {
  const stdout = collector()
  const stderr = collector()
  const stdin = new PassThrough()
  stdin.end()
  const code = await runCli(argv, { stdin, stdout, stderr, env }, { version: 'test', secretStore })
  return { code, stdout: stdout.text(), stderr: stderr.text() }
}
