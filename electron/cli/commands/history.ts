import { GeoFailure } from '../../base/geo-failure'
import { Redactor } from '../../core/http/redactor'
import { resolveDataDir } from '../../core/paths'
import { stringFlag } from '../args'
import type { CliCommand } from '../context'

export const historyCommands: CliCommand[] = [
  {
    name: 'history',
    summary: 'List recent interface calls (newest first), never with credentials',
    usage: 'history [--limit N] [--json]',
    flags: { limit: 'string' },
    async run(ctx, args) {
      const raw = stringFlag(args, 'limit') ?? '20'
      if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 10_000) {
        throw new GeoFailure('validation', '--limit must be a whole number from 1 to 10000', {
          field: 'limit',
        })
      }
      // The history's schemas are loaded when it is read (a chunk of the built CLI).
      const { RequestHistory } = await import('../../core/workspace/request-history')
      const entries = await new RequestHistory(resolveDataDir({ env: ctx.env }), new Redactor()).list(
        Number(raw),
      )
      const lines = entries.map((e) =>
        [
          e.time,
          e.operation.padEnd(20),
          String(e.status ?? '-').padEnd(4),
          (e.failureClass ?? 'ok').padEnd(26),
          `${e.attempts} att`,
          `${Math.round(e.durationMs)} ms`,
          e.url,
        ].join('  '),
      )
      ctx.print(entries, entries.length ? lines.join('\n') : 'No calls recorded yet.')
    },
  },
]
