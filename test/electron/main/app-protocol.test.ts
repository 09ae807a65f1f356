import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { appProtocolHandler } from '../../../electron/main/app-protocol'
import { useTempDirs } from '../../support/temp-dir'

const tempDir = useTempDirs()

function handler(tileUrls: string[] = ['https://tile.openstreetmap.org/{z}/{x}/{y}.png']) {
  const rendererDir = tempDir()
  writeFileSync(path.join(rendererDir, 'index.html'), '<style nonce="GEO_CSP_NONCE"></style>')
  mkdirSync(path.join(rendererDir, 'assets'))
  writeFileSync(path.join(rendererDir, 'assets', 'app.js'), 'console.log(1)')
  return appProtocolHandler({
    rendererDir,
    join: path.join,
    readText: (file) => readFile(file, 'utf8'),
    fetchFile: async (file) =>
      new Response(readFileSync(file), { headers: { 'content-type': 'text/javascript' } }),
    tileUrls: async () => tileUrls,
  })
}

describe('the app:// protocol', () => {
  it('serves the page with a fresh nonce and the tile servers of the settings in its policy', async () => {
    const serve = handler(['https://{a-b}.tiles.example.com/{z}/{x}/{y}.png'])
    const [first, second] = [
      await serve({ url: 'app://geo-analyst/index.html' }),
      await serve({ url: 'app://geo-analyst/' }),
    ]
    const nonceOf = (r: Response) => /'nonce-([^']+)'/.exec(r.headers.get('content-security-policy')!)?.[1]
    expect(nonceOf(first)).toBeDefined()
    expect(nonceOf(first)).not.toBe(nonceOf(second))
    expect(await first.text()).toBe(`<style nonce="${nonceOf(first)}"></style>`)
    expect(first.headers.get('content-security-policy')).toContain(
      "img-src 'self' data: blob: https://a.tiles.example.com https://b.tiles.example.com;",
    )
    expect(first.headers.get('content-security-policy')).not.toContain('unsafe-inline')
    expect(first.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('serves other files with the policy, and answers refusals and failures without throwing', async () => {
    const serve = handler()
    const script = await serve({ url: 'app://geo-analyst/assets/app.js' })
    expect(script.status).toBe(200)
    expect(await script.text()).toBe('console.log(1)')
    expect(script.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect((await serve({ url: 'app://geo-analyst/%E0%A4%A' })).status).toBe(400)
    expect((await serve({ url: 'app://geo-analyst/a%2f..%2f..%2fetc%2fpasswd' })).status).toBe(400)
    expect((await serve({ url: 'app://elsewhere/index.html' })).status).toBe(404)
    expect((await serve({ url: 'app://geo-analyst/missing.js' })).status).toBe(404)
    expect((await serve({ url: 'app://geo-analyst/missing.html' })).status).toBe(404)
  })
})
