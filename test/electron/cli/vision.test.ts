import { copyFile, mkdir, readdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../../electron/core/secrets/memory-secret-store'
import { cli, tempDir } from './cli-harness'

const STREET = path.join(import.meta.dirname, '..', '..', 'fixtures', 'vision', 'street.jpg')

/** The CLI against the built-in local service (the default Local profile), in a fresh data folder. */
async function env(): Promise<NodeJS.ProcessEnv> {
  const data = await tempDir('vision-cli-data-')
  return {
    GEO_ANALYST_DATA_DIR: data,
    GEO_ANALYST_CONFIG_DIR: await tempDir('vision-cli-config-'),
    GEO_ANALYST_WORKSPACE: path.join(data, 'workspace'),
  }
}

describe('geo-analyst vision blur', () => {
  it('blurs one image into --out, and refuses to overwrite it on a second run', async () => {
    const e = await env()
    const out = path.join(await tempDir('vision-cli-out-'), 'street-blurred.jpg')
    const store = new MemorySecretStore()
    const first = await cli(['vision', 'blur', STREET, '--out', out], e, store)
    expect(first.stderr).toBe('')
    expect(first.code).toBe(0)
    expect(first.stdout).toMatch(/\[1\/1\] .*street\.jpg → .*street-blurred\.jpg \(2 regions blurred\)/)
    const meta = await sharp(out).metadata()
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
      format: 'jpeg',
      width: 1280,
      height: 720,
    })
    const again = await cli(['vision', 'blur', STREET, '--out', out], e, store)
    expect(again.code).not.toBe(0)
    expect(again.stderr).toMatch(
      /conflict: .*street-blurred\.jpg exists: nothing is overwritten without --overwrite/,
    )
  }, 180_000)

  it('blurs a folder into a folder; a file that fails is reported and the batch goes on', async () => {
    const e = await env()
    const photos = await tempDir('vision-cli-in-')
    await copyFile(STREET, path.join(photos, 'a.jpg'))
    await sharp(STREET).resize(640).png().toFile(path.join(photos, 'b.png'))
    await writeFile(path.join(photos, 'c.jpg'), 'not an image')
    await writeFile(path.join(photos, 'notes.txt'), 'ignored')
    const out = path.join(await tempDir('vision-cli-out-'), 'blurred')
    await mkdir(out)
    const r = await cli(['vision', 'blur', photos, '--out', out, '--json'], e, new MemorySecretStore())
    expect(r.code).not.toBe(0)
    const report = JSON.parse(r.stdout) as {
      results: Array<{ input: string; output?: string; error?: string }>
      failed: number
    }
    expect(report.failed).toBe(1)
    expect(report.results.map((x) => path.basename(x.input))).toEqual(['a.jpg', 'b.png', 'c.jpg'])
    expect(report.results[2]?.error).toMatch(/not a JPEG|not an image|neither JPEG nor PNG/)
    expect((await readdir(out)).sort()).toEqual(['a.jpg', 'b.png'])
    expect((await sharp(path.join(out, 'b.png')).metadata()).format).toBe('png')
  }, 180_000)

  it('needs an input and --out', async () => {
    const r = await cli(['vision', 'blur', STREET], await env())
    expect(r.code).not.toBe(0)
    expect(r.stderr).toMatch(/usage: geo-analyst vision blur IMAGE\|FOLDER --out FILE\|FOLDER/)
  })
})
