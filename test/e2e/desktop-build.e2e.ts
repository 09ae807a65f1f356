import { fork } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { LocalServiceLauncher } from '../../electron/main/local-service-launcher'
import { useTempDirs } from '../support/temp-dir'

/**
 * What the desktop build ships for the local service's utility process: the bundle electron-vite builds
 * (`out/main/local-service.js`, beside the pool worker) runs the service when forked, and
 * electron-builder's file list takes it into the package. The Electron binary is not needed for this.
 */
const ROOT = path.resolve(import.meta.dirname, '../..')
const tempDir = useTempDirs()
const children: Array<ReturnType<typeof fork>> = []
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
})

describe('the desktop build of the local service', () => {
  it('is taken into the package by electron-builder', () => {
    const config = readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')
    const files = /^files:\n((?:\s+- .*\n)+)/m.exec(config)?.[1] ?? ''
    expect(files).toMatch(/- out\/\*\*/)
    expect(files).not.toMatch(/!.*(out\/main|local-service|pool-worker)/)
  })

  it('starts from its built bundle in a child process and answers over HTTP', async () => {
    const launcher = new LocalServiceLauncher({
      fork: () => {
        const child = fork(path.join(ROOT, 'out/main/local-service.js'), [], { stdio: 'inherit' })
        children.push(child)
        return {
          postMessage: (request) => void child.send(request),
          onMessage: (listener) => void child.on('message', listener),
          onExit: (listener) => void child.once('exit', (code) => listener(code)),
          kill: () => void child.kill('SIGKILL'),
        }
      },
      service: { workspaceDir: tempDir(), sampleDir: path.join(ROOT, 'resources/sample') },
    })
    const service = await launcher.start()
    try {
      const layers = await fetch(`${service.urls.mgis_v2_url}/getLayersList`, {
        headers: { authorization: `Bearer ${service.token}` },
      })
      const body = (await layers.json()) as { data: Array<{ layername: string }> }
      expect(body.data.map((d) => d.layername).sort()).toEqual([
        'india_cities',
        'india_city_links',
        'india_states',
      ])
      // A join runs in the pool worker the bundle finds beside itself.
      const query = new URLSearchParams({
        queryType: 'spatialOperation',
        datasetSource: 'india_cities',
        operator: 'Within',
        sourceProperty: 'geom',
        datasetRef: 'india_states',
        refProperty: 'geom',
        selectionParamSource: 'name',
      })
      const join = await fetch(`${service.urls.mgis_url}/query_apply/join?${query}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${service.token}` },
      })
      const answer = (await join.json()) as { result?: unknown[]; message?: string }
      expect(join.status, answer.message).toBe(200)
      expect(answer.result?.length).toBeGreaterThan(3000)
    } finally {
      await service.close()
    }
  }, 120_000)
})
