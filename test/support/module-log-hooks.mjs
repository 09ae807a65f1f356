// Module hooks (`module.register`, run on the loader's own thread) that append each module's URL as it is
// loaded to the file `initialize` is given: what a process read to do its work (`module-log.mjs`).
import { appendFileSync } from 'node:fs'

let file

export function initialize(data) {
  file = data.file
}

export async function load(url, context, nextLoad) {
  if (file) appendFileSync(file, `${url}\n`)
  return nextLoad(url, context)
}
