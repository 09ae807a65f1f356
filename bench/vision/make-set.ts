import { existsSync } from 'node:fs'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { Rng } from './random'
import { makeScene, type ImageLabel } from './scene'

/**
 * The labelled set of `npm run bench:vision`, generated on demand into a cache folder (never committed):
 * street photos of several sizes and 360° panoramas of 4000×2000 and 8000×4000, each with rendered Indian
 * plates (their corners labelled) and shop-sign text (labelled as distractors). Seeded: the same set on
 * every machine. Bump SET_VERSION when the generator changes.
 */
export const SET_VERSION = 1
export const SET_DIR = resolve(import.meta.dirname, '..', '.data', 'vision', `set-v${SET_VERSION}`)

export interface SetPlan {
  photos: number
  panoramas4k: number
  panoramas8k: number
}

export const FULL_SET: SetPlan = { photos: 184, panoramas4k: 12, panoramas8k: 4 }

const PHOTO_SIZES: ReadonlyArray<[number, number]> = [
  [1280, 720],
  [1600, 1200],
  [1920, 1080],
  [2048, 1536],
  [1024, 768],
]

export async function loadSet(dir = SET_DIR): Promise<ImageLabel[]> {
  return JSON.parse(await readFile(join(dir, 'labels.json'), 'utf8')) as ImageLabel[]
}

export async function ensureSet(
  plan: SetPlan = FULL_SET,
  dir = SET_DIR,
  log = console.log,
): Promise<ImageLabel[]> {
  if (existsSync(join(dir, 'labels.json'))) return loadSet(dir)
  const tmp = `${dir}.partial`
  await rm(tmp, { recursive: true, force: true })
  await mkdir(tmp, { recursive: true })
  const rng = new Rng(20261123)
  const labels: ImageLabel[] = []
  const jobs: Array<{ name: string; width: number; height: number; panorama: boolean; plates: number }> = []
  for (let i = 0; i < plan.photos; i++) {
    const [width, height] = PHOTO_SIZES[i % PHOTO_SIZES.length] as [number, number]
    jobs.push({
      name: `photo-${String(i).padStart(3, '0')}.jpg`,
      width,
      height,
      panorama: false,
      plates: 1 + (i % 4),
    })
  }
  for (let i = 0; i < plan.panoramas4k; i++)
    jobs.push({ name: `pano4k-${i}.jpg`, width: 4000, height: 2000, panorama: true, plates: 8 })
  for (let i = 0; i < plan.panoramas8k; i++)
    jobs.push({ name: `pano8k-${i}.jpg`, width: 8000, height: 4000, panorama: true, plates: 12 })
  const started = performance.now()
  for (const [n, job] of jobs.entries()) {
    const { jpeg, label } = await makeScene(rng, { ...job, seamPlate: job.panorama })
    await writeFile(join(tmp, job.name), jpeg)
    labels.push({ file: job.name, ...label })
    if ((n + 1) % 25 === 0 || n === jobs.length - 1)
      log(
        `  generated ${n + 1}/${jobs.length} images (${((performance.now() - started) / 1000).toFixed(0)} s)`,
      )
  }
  await writeFile(join(tmp, 'labels.json'), JSON.stringify(labels))
  await rm(dir, { recursive: true, force: true })
  await rename(tmp, dir)
  return labels
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] ? resolve(process.argv[2]) : SET_DIR
  const small = process.argv.includes('--small')
  await ensureSet(small ? { photos: 6, panoramas4k: 1, panoramas8k: 0 } : FULL_SET, dir)
  console.log(`labelled set in ${dir}`)
}
