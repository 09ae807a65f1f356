import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { Rng } from './random'
import { makeScene, type ImageLabel } from './scene'

/**
 * The small committed fixture set of the vision unit tests (test/fixtures/vision), made with the same
 * generator as the bench's labelled set: a street photo with two readable plates and shop signs, and a
 * 2:1 panorama (GPano XMP) with a plate across the 360° seam. Re-run after changing the generator:
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
await writeFile(join(OUT, 'labels.json'), JSON.stringify(labels, null, 1) + '\n')
console.log(`fixtures in ${OUT}`)
