import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { Rng } from './random'
import { makeScene, type ImageLabel } from './scene'

/**
 * The small committed fixture set of the vision unit tests (test/fixtures/vision), made with the same
 * generator as the bench's labelled set: a street photo with two readable plates and shop signs, and a
 * 2:1 panorama (GPano XMP) with a plate across the 360° seam, and a street photo whose plates are small
 * (24–60 px wide, as in a street panorama). Re-run after changing the generator:
 * `node --import tsx bench/vision/make-fixtures.ts`.
 */
const OUT = resolve(import.meta.dirname, '..', '..', 'test', 'fixtures', 'vision')

await mkdir(OUT, { recursive: true })
const labels: ImageLabel[] = []
const street = await makeScene(new Rng(14), {
  width: 1280,
  height: 720,
  panorama: false,
  plates: 2,
  seamPlate: false,
  widths: [170, 130],
  quality: 85,
})
await writeFile(join(OUT, 'street.jpg'), street.jpeg)
labels.push({ file: 'street.jpg', ...street.label })
const pano = await makeScene(new Rng(12), {
  width: 2000,
  height: 1000,
  panorama: true,
  plates: 2,
  seamPlate: true,
  widths: [180, 150],
  quality: 85,
})
await writeFile(join(OUT, 'pano-seam.jpg'), pano.jpeg)
labels.push({ file: 'pano-seam.jpg', ...pano.label })
// small plates as a street panorama shows them: 24–60 px wide, oblique, blurred (the small-plate part's look)
const small = await makeScene(new Rng(31), {
  width: 1600,
  height: 900,
  panorama: false,
  plates: 4,
  seamPlate: false,
  widths: [26, 34, 46, 60],
  quality: 80,
  view: { yaw: 0.3, shrink: [0.7, 1], roll: 5 },
  sigmas: [0.5],
})
await writeFile(join(OUT, 'small-plates.jpg'), small.jpeg)
labels.push({ file: 'small-plates.jpg', ...small.label })
await writeFile(join(OUT, 'labels.json'), JSON.stringify(labels, null, 1) + '\n')
console.log(`fixtures in ${OUT}`)
