import { promises as fs } from 'node:fs'
import path from 'node:path'
import { isImageName } from '../../contract/vision/blur-plates'
import { GeoFailure } from '../../base/geo-failure'

/**
 * The jobs of `vision blur IN --out OUT`: one file to one file, or every image of a folder (not recursing)
 * into a folder under the same names. An output that exists is refused unless `overwrite`; an output that is
 * the input is always refused.
 */
export async function planBlurJobs(
  input: string,
  out: string,
  overwrite: boolean,
): Promise<Array<{ inputPath: string; outputPath: string }>> {
  const stat = await fs.stat(input).catch(() => null)
  if (!stat) throw new GeoFailure('validation', `${input} does not exist`, { field: 'input' })
  let jobs: Array<{ inputPath: string; outputPath: string }>
  if (stat.isDirectory()) {
    const names = (await fs.readdir(input)).filter(isImageName).sort()
    if (names.length === 0)
      throw new GeoFailure('validation', `${input} holds no .jpg, .jpeg or .png image`, { field: 'input' })
    const outStat = await fs.stat(out).catch(() => null)
    if (outStat && !outStat.isDirectory())
      throw new GeoFailure('validation', `--out ${out} must be a folder when the input is a folder`, {
        field: 'out',
      })
    jobs = names.map((name) => ({ inputPath: path.join(input, name), outputPath: path.join(out, name) }))
  } else {
    const outStat = await fs.stat(out).catch(() => null)
    const outputPath = outStat?.isDirectory() ? path.join(out, path.basename(input)) : out
    jobs = [{ inputPath: input, outputPath }]
  }
  for (const job of jobs) {
    if (path.resolve(job.inputPath) === path.resolve(job.outputPath))
      throw new GeoFailure('validation', `${job.outputPath} is the input itself: choose another --out`, {
        field: 'out',
      })
  }
  if (!overwrite) {
    const existing = []
    for (const job of jobs) if (await fs.stat(job.outputPath).catch(() => null)) existing.push(job.outputPath)
    if (existing.length)
      throw new GeoFailure(
        'conflict',
        `${existing.length === 1 ? `${existing[0]} exists` : `${existing.length} outputs exist (${existing.slice(0, 3).join(', ')}…)`}: nothing is overwritten without --overwrite`,
        { field: 'out' },
      )
  }
  return jobs
}
