import { spawn } from 'node:child_process'
import path from 'node:path'

export interface CliRun {
  code: number | null
  stdout: string
  stderr: string
}

const ROOT = path.resolve(import.meta.dirname, '../..')

/**
 * Run the real `geo-analyst` command as a separate process, as a script would: from source, or `built`, the
 * build's `out/cli/geo-analyst.mjs`; `nodeArgs` go to Node before it (e.g. `--import` of module hooks).
 */
export function runCliProcess(
  args: string[],
  options: {
    stdin?: string
    env?: NodeJS.ProcessEnv
    timeoutMs?: number
    built?: boolean
    nodeArgs?: string[]
    cwd?: string
  } = {},
): Promise<CliRun> {
  const entry = options.built
    ? [path.join(ROOT, 'out/cli/geo-analyst.mjs')]
    : ['--import', 'tsx', path.join(ROOT, 'electron/cli/main.ts')]
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...entry, ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
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
