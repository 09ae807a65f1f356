import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '../..')

/** `test/support/lock-child.ts` in its own process. */
export function lockChild(args: string[]): ChildProcess {
  return spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'test/support/lock-child.ts'), ...args],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
}

export function exited(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = ''
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })))
}

export function printed(child: ChildProcess, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      if (out.includes(text)) resolve()
    })
    child.on('close', () => reject(new Error(`exited before printing "${text}"`)))
  })
}
