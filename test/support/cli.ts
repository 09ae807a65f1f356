import { spawn } from 'node:child_process'
import path from 'node:path'

export interface CliRun {
  code: number | null
  stdout: string
  stderr: string
}

const ROOT = path.resolve(import.meta.dirname, '../..')

/** Run the real `geo-analyst` command from source as a separate process, as a script would. */
export function runCliProcess(
  args: string[],
  options: { stdin?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'electron/cli/main.ts'), ...args],
      {
        cwd: ROOT,
        env: { ...process.env, ...options.env },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    )
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
    child.stdin.end(options.stdin ?? '')
  })
}
