import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'

/** Every file under a folder, recursively, with its bytes as text. */
export function readTree(dir: string): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = []
  if (!existsSync(dir)) return out
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) out.push(...readTree(full))
    else out.push({ file: full, text: readFileSync(full).toString('latin1') })
  }
  return out
}

export function countOccurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1
}
