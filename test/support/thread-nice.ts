import { readdirSync, readFileSync } from 'node:fs'

/**
 * The scheduling priority (nice) of each thread of this process, as the kernel has it (Linux:
 * `/proc/self/task/TID/stat`, field 19). A test of which threads a service runs lowered.
 */
export function threadNices(): number[] {
  return readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
      // The fields after the command's closing parenthesis start at field 3.
      return [Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19 - 3])]
    } catch {
      return [] // the thread ended meanwhile
    }
  })
}
