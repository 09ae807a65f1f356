import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it, vi } from 'vitest'
import {
  destroy,
  loadGeos,
  onGeosNotice,
  toGeos,
  validity,
} from '../../../../electron/local-service/engine/geos'

const bowTie = {
  type: 'Polygon' as const,
  coordinates: [
    [
      [0, 0],
      [4, 4],
      [4, 0],
      [0, 4],
      [0, 0],
    ],
  ],
}

const geosModule = fileURLToPath(
  new URL('../../../../electron/local-service/engine/geos.ts', import.meta.url),
)

/** Check the bow tie's validity in a fresh Node process; returns what it printed. */
function checkInChild(nodeDebug: string): { stdout: string; stderr: string } {
  const script = `
    const { loadGeos, toGeos, validity } = await import(${JSON.stringify(geosModule)})
    const geos = await loadGeos()
    validity(geos, toGeos(geos, ${JSON.stringify(bowTie)}))
  `
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    env: { ...process.env, NODE_DEBUG: nodeDebug },
    encoding: 'utf8',
  })
  if (r.status !== 0) throw new Error(`the child failed: ${r.stderr}`)
  return { stdout: r.stdout, stderr: r.stderr }
}

describe('GEOS notices', () => {
  it('go to the notice sink, not to the console, while the reason is still answered', async () => {
    const geos = await loadGeos()
    const notices: string[] = []
    const restore = onGeosNotice((m) => notices.push(m))
    const spies = (['log', 'error', 'warn', 'info', 'debug'] as const).map((m) =>
      vi.spyOn(console, m).mockImplementation(() => undefined),
    )
    try {
      const ptr = toGeos(geos, bowTie)
      expect(validity(geos, ptr)).toMatchObject({ valid: false, reason: 'Self-intersection[2 2]' })
      destroy(geos, ptr)
      for (const spy of spies) expect(spy).not.toHaveBeenCalled()
      expect(notices).toEqual([expect.stringMatching(/Self-intersection at or near point 2 2/)])
    } finally {
      restore()
      for (const spy of spies) spy.mockRestore()
    }
  })

  it('print nothing by default, and show in the debug log with NODE_DEBUG=geos', () => {
    expect(checkInChild('')).toEqual({ stdout: '', stderr: '' })
    const debug = checkInChild('geos')
    expect(debug.stdout).toBe('')
    expect(debug.stderr).toMatch(/^GEOS \d+: notice: Self-intersection at or near point 2 2/)
  }, 60_000)
})
