/**
 * A process that takes turns with others (run with `node --import tsx`), for the tests of the locks that
 * hold across processes:
 *
 * - `count LOCK FILE N`: N times, under LOCK, read the number in FILE, yield, and write it plus one.
 * - `profiles CONFIG_DIR PREFIX N`: save N remote profiles PREFIX-0 … PREFIX-(N-1) in CONFIG_DIR's settings.
 * - `hold LOCK`: take LOCK, print "held", and keep it until killed.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { withFileLock } from '../../electron/base/file-lock'
import { SettingsStore } from '../../electron/core/settings/settings-store'

const [mode, first, second, third] = process.argv.slice(2)
const busy = (lock: string) => new Error(`busy: ${lock}`)

if (mode === 'count') {
  for (let i = 0; i < Number(third); i++) {
    await withFileLock(
      first!,
      async () => {
        const n = Number(await readFile(second!, 'utf8').catch(() => '0'))
        await new Promise((resolve) => setImmediate(resolve))
        await writeFile(second!, String(n + 1))
      },
      { busy },
    )
  }
} else if (mode === 'profiles') {
  const store = new SettingsStore({ configDir: first! })
  const url = (p: string) => `https://${second}.example.com/${p}`
  for (let i = 0; i < Number(third); i++) {
    await store.saveProfile(`${second}-${i}`, {
      atlas_url: url('atlas'),
      advancedmaps_url: url('advancedmaps'),
      mgis_url: url('mgis'),
      mgis_v2_url: url('mgis2'),
      telematics_url: url('telematics'),
      aiml_url: url('aiml'),
    })
  }
} else if (mode === 'hold') {
  await withFileLock(
    first!,
    async () => {
      process.stdout.write('held\n')
      // A timer keeps the process alive (a promise alone would let it exit).
      await new Promise(() => setInterval(() => undefined, 60_000))
    },
    { busy },
  )
} else {
  throw new Error(`unknown mode ${mode}`)
}
