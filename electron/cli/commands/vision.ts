import { stringFlag } from '../args'
import type { CliCommand } from '../context'
import { planBlurJobs } from '../../core/vision/blur-files'
import { GeoFailure } from '../../base/geo-failure'

/** `geo-analyst vision …`: license-plate blurring on the active profile (cloud or the built-in local service). */
export const visionCommands: CliCommand[] = [
  {
    name: 'vision blur',
    summary: 'Blur the license plates of an image, or of every image in a folder (§4.10)',
    usage: 'vision blur IMAGE|FOLDER --out FILE|FOLDER [--overwrite] [--json]',
    flags: { out: 'string', overwrite: 'boolean' },
    async run(ctx, args) {
      const input = args.positionals[0]
      const out = stringFlag(args, 'out')
      if (!input || !out)
        throw new GeoFailure('validation', 'usage: geo-analyst vision blur IMAGE|FOLDER --out FILE|FOLDER', {
          field: input ? 'out' : 'input',
        })
      const overwrite = args.flags.overwrite === true
      const jobs = await planBlurJobs(input, out, overwrite)
      const results: Array<{ input: string; output?: string; plates?: number | null; error?: string }> = []
      // one file after another: a failure is reported for its file and the batch goes on
      for (const [i, job] of jobs.entries()) {
        try {
          const done = await ctx.invoke('vision.blurFile', { ...job, overwrite })
          results.push({ input: job.inputPath, output: done.outputPath, plates: done.boxes?.length ?? null })
          if (!ctx.json)
            ctx.stdout.write(
              `[${i + 1}/${jobs.length}] ${job.inputPath} → ${done.outputPath}${done.boxes ? ` (${done.boxes.length} regions blurred)` : ''}\n`,
            )
        } catch (error) {
          if (jobs.length === 1) throw error
          const message = error instanceof Error ? error.message : String(error)
          results.push({ input: job.inputPath, error: message })
          ctx.warn(`[${i + 1}/${jobs.length}] ${job.inputPath}: ${message}`)
        }
      }
      const failed = results.filter((r) => r.error).length
      if (ctx.json) ctx.print({ results, failed }, '')
      else if (jobs.length > 1)
        ctx.stdout.write(
          `${jobs.length - failed} of ${jobs.length} images blurred${failed ? `, ${failed} failed` : ''}\n`,
        )
      if (failed)
        throw new GeoFailure('validation', `${failed} of ${jobs.length} images could not be blurred`)
    },
  },
]
