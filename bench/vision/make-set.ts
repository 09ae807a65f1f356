import { existsSync } from 'node:fs'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { Rng } from './random'
import { makeScene, type ImageLabel, type SceneOptions } from './scene'

/**
 * The labelled set of `npm run bench:vision`, generated on demand into a cache folder (never committed), in
 * two parts, each seeded (the same on every machine) and in its own folder:
 * - `base` (`set-v1`): street photos of several sizes and 360° panoramas of 4000×2000 and 8000×4000, each
 *   with rendered Indian plates 20–200 px wide (corners labelled) and shop-sign text (labelled as
 *   distractors) — the set ADR 009's figures were measured on;
 * - `small` (`small-v1`): street scenes whose plates are all 20–80 px wide (the widths of a street
 *   panorama's plates), seen more obliquely (stronger keystone, foreshortening and roll), under realistic
 *   optics blur, sometimes motion blur, JPEG 50–90.
 * Bump a part's version when its generator changes.
 */
export const VISION_DATA = resolve(import.meta.dirname, '..', '.data', 'vision')
export const SET_VERSION = 1
export const SET_DIR = join(VISION_DATA, `set-v${SET_VERSION}`)
export const SMALL_SET_VERSION = 1
export const SMALL_SET_DIR = join(VISION_DATA, `small-v${SMALL_SET_VERSION}`)

export type SetPart = 'base' | 'small'

/** An image of the set: its label, the part it belongs to and its path on disk. */
export interface SetImage extends ImageLabel {
  part: SetPart
  path: string
}

export interface SetPlan {
  photos: number
  panoramas4k: number
  panoramas8k: number
}

export const FULL_SET: SetPlan = { photos: 184, panoramas4k: 12, panoramas8k: 4 }
export const SMALL_SET: SetPlan = { photos: 48, panoramas4k: 4, panoramas8k: 2 }

const PHOTO_SIZES: ReadonlyArray<[number, number]> = [
  [1280, 720],
  [1600, 1200],
  [1920, 1080],
  [2048, 1536],
  [1024, 768],
]
const SMALL_PHOTO_SIZES: ReadonlyArray<[number, number]> = [
  [1920, 1080],
  [2048, 1536],
  [1600, 1200],
]

type Job = Omit<SceneOptions, 'seamPlate'> & { name: string }

/** The base part: plates 20–200 px, the generator's default look. */
function baseJobs(plan: SetPlan): Job[] {
  const jobs: Job[] = []
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
  return jobs
}

/** The small-plate part: several cars per scene, plates 20–80 px, oblique, blurred. */
function smallJobs(plan: SetPlan): Job[] {
  const look = {
    widthRange: [20, 80] as const,
    view: { yaw: 0.35, shrink: [0.55, 1] as const, roll: 8 },
    sigmas: [0.3, 0.5, 0.7, 1] as const,
    motionBlur: { chance: 0.3, maxLength: 3 },
    qualityRange: [50, 90] as const,
  }
  const jobs: Job[] = []
  for (let i = 0; i < plan.photos; i++) {
    const [width, height] = SMALL_PHOTO_SIZES[i % SMALL_PHOTO_SIZES.length] as [number, number]
    const name = `street-${String(i).padStart(3, '0')}.jpg`
    jobs.push({ name, width, height, panorama: false, plates: 5, ...look })
  }
  for (let i = 0; i < plan.panoramas4k; i++)
    jobs.push({ name: `pano4k-${i}.jpg`, width: 4000, height: 2000, panorama: true, plates: 10, ...look })
  for (let i = 0; i < plan.panoramas8k; i++)
    jobs.push({ name: `pano8k-${i}.jpg`, width: 8000, height: 4000, panorama: true, plates: 16, ...look })
  return jobs
}

const PARTS: Record<SetPart, { dir: string; seed: number; jobs: (plan: SetPlan) => Job[]; plan: SetPlan }> = {
  base: { dir: SET_DIR, seed: 20261123, jobs: baseJobs, plan: FULL_SET },
  small: { dir: SMALL_SET_DIR, seed: 20261207, jobs: smallJobs, plan: SMALL_SET },
}

export async function loadSet(dir = SET_DIR): Promise<ImageLabel[]> {
  return JSON.parse(await readFile(join(dir, 'labels.json'), 'utf8')) as ImageLabel[]
}

/** Generate one part into `dir` (atomically: a partial folder renamed at the end) unless it is there. */
export async function ensurePart(
  part: SetPart,
  options: { plan?: SetPlan; dir?: string; seed?: number; log?: (line: string) => void } = {},
): Promise<SetImage[]> {
  const spec = PARTS[part]
  const dir = options.dir ?? spec.dir
  const log = options.log ?? console.log
  const withPaths = (labels: ImageLabel[]): SetImage[] =>
    labels.map((l) => ({ ...l, part, path: join(dir, l.file) }))
  if (existsSync(join(dir, 'labels.json'))) return withPaths(await loadSet(dir))
  const tmp = `${dir}.partial`
  await rm(tmp, { recursive: true, force: true })
  await mkdir(tmp, { recursive: true })
  const rng = new Rng(options.seed ?? spec.seed)
  const labels: ImageLabel[] = []
  const jobs = spec.jobs(options.plan ?? spec.plan)
  const started = performance.now()
  for (const [n, { name, ...job }] of jobs.entries()) {
    const { jpeg, label } = await makeScene(rng, { ...job, seamPlate: job.panorama })
    await writeFile(join(tmp, name), jpeg)
    labels.push({ file: name, ...label })
    if ((n + 1) % 25 === 0 || n === jobs.length - 1)
      log(
        `  ${part}: generated ${n + 1}/${jobs.length} images (${((performance.now() - started) / 1000).toFixed(0)} s)`,
      )
  }
  await writeFile(join(tmp, 'labels.json'), JSON.stringify(labels))
  await rm(dir, { recursive: true, force: true })
  await rename(tmp, dir)
  return withPaths(labels)
}

/** Both parts, base first. */
export async function ensureSet(log: (line: string) => void = console.log): Promise<SetImage[]> {
  return [...(await ensurePart('base', { log })), ...(await ensurePart('small', { log }))]
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // node --import tsx bench/vision/make-set.ts [base|small] [dir] [--seed N] [--tiny]
  const args = process.argv.slice(2)
  const seedAt = args.indexOf('--seed')
  const seed = seedAt >= 0 ? Number(args[seedAt + 1]) : undefined
  const rest = args.filter((a, i) => !a.startsWith('--') && (seedAt < 0 || i !== seedAt + 1))
  const part = (rest[0] ?? 'base') as SetPart
  if (!(part in PARTS)) throw new Error(`unknown part "${part}": base or small`)
  const dir = rest[1] ? resolve(rest[1]) : undefined
  const plan = args.includes('--tiny') ? { photos: 6, panoramas4k: 1, panoramas8k: 0 } : undefined
  await ensurePart(part, { dir, seed, plan })
  console.log(`labelled set (${part}) in ${dir ?? PARTS[part].dir}`)
}
