/**
 * How a local dataset's features should reach the renderer (docs/decisions/004-bulk-geometry-transfer.md):
 * GeoJSON text vs FlatGeobuf bytes, over the browser host (JSON envelope, bytes as base64) and over
 * Electron IPC (structured clone; v8.serialize as its proxy). Prints bytes on the wire, main-side encode
 * time (from the workspace file) and renderer-side decode time (to GeoJSON features) for the sample
 * datasets and a 100,000-point dataset. Median of N runs after a warm-up.
 *
 *   npx tsx bench/bulk-geometry-transfer.ts [--runs N]
 */
import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import v8 from 'node:v8'
import { deserialize } from 'flatgeobuf/lib/mjs/geojson.js'
import { createWorkspacePort } from '../electron/local-service'
import { createSampleWorkspace, resolveSampleDir } from '../electron/local-service/sample/sample-workspace'
import { Workspace } from '../electron/local-service/workspace/workspace'
import { mulberry32, points } from './join-data'

const runsFlag = process.argv.indexOf('--runs')
const RUNS = runsFlag >= 0 ? Number(process.argv[runsFlag + 1]) : 7
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

async function time<T>(work: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  let value = await work() // warm-up
  const times: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now()
    value = await work()
    times.push(performance.now() - t)
  }
  return { ms: median(times), value }
}

/** FlatGeobuf bytes to GeoJSON features, as the renderer would (flatgeobuf's own GeoJSON reader). */
async function fgbToFeatures(bytes: Uint8Array): Promise<unknown[]> {
  const out: unknown[] = []
  for await (const f of deserialize(bytes) as AsyncGenerator<unknown>) out.push(f)
  return out
}

const mib = (n: number) => (n / 1024 / 1024).toFixed(2)

async function main() {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'geo-bulk-'))
  try {
    const workspace = new Workspace(dir)
    const sampleDir = resolveSampleDir()
    if (!sampleDir) throw new Error('resources/sample not found')
    await createSampleWorkspace(workspace, sampleDir)
    await workspace.create(
      'points_100k',
      points(100_000, mulberry32(4)).map((f) => ({
        ...f,
        properties: { ...f.properties, name: `p${String(f.properties.id)}` },
      })),
      { source: 'bench' },
    )
    const port = createWorkspacePort(dir)
    console.log(
      `median of ${RUNS} runs; "enc" = main side from the workspace, "dec" = renderer side to features`,
    )
    console.log(
      'dataset         form            wire MiB (web)  wire MiB (ipc)  enc ms (web)  enc ms (ipc)  dec ms (web)  dec ms (ipc)',
    )
    for (const name of ['india_states', 'india_cities', 'points_100k']) {
      const dataFile = path.join(dir, 'datasets', name, 'data.fgb')
      // GeoJSON text: read the dataset, stringify; web wraps it in the JSON answer; IPC clones the string.
      const gjEnc = await time(() => port.features(name))
      const gjWeb = await time(() => JSON.stringify({ ok: true, value: gjEnc.value }))
      const gjIpc = await time(() => v8.serialize({ ok: true, value: gjEnc.value }))
      const gjWebDec = await time(() => {
        const envelope = JSON.parse(gjWeb.value) as { value: { geojson: string } }
        return (JSON.parse(envelope.value.geojson) as { features: unknown[] }).features
      })
      const gjIpcDec = await time(() => {
        const envelope = v8.deserialize(gjIpc.value) as { value: { geojson: string } }
        return (JSON.parse(envelope.value.geojson) as { features: unknown[] }).features
      })
      // FlatGeobuf: the workspace file as it is; web as base64 in the JSON answer; IPC clones the bytes.
      const fgbRead = await time(async () => new Uint8Array(await fs.readFile(dataFile)))
      const fgbWeb = await time(() =>
        JSON.stringify({ ok: true, value: { name, fgb: Buffer.from(fgbRead.value).toString('base64') } }),
      )
      const fgbIpc = await time(() => v8.serialize({ ok: true, value: { name, fgb: fgbRead.value } }))
      const fgbWebDec = await time(async () => {
        const envelope = JSON.parse(fgbWeb.value) as { value: { fgb: string } }
        return fgbToFeatures(new Uint8Array(Buffer.from(envelope.value.fgb, 'base64')))
      })
      const fgbIpcDec = await time(async () => {
        const envelope = v8.deserialize(fgbIpc.value) as { value: { fgb: Uint8Array } }
        // A structured clone arrives in its own buffer; v8.deserialize may hand back an unaligned view.
        return fgbToFeatures(envelope.value.fgb.slice())
      })
      if (fgbIpcDec.value.length !== gjIpcDec.value.length) throw new Error(`${name}: feature counts differ`)
      const row = (form: string, cells: Array<string | number>) =>
        console.log(
          `${name.padEnd(16)}${form.padEnd(16)}${cells.map((c, i) => String(c).padStart(i === 0 ? 14 : 14)).join('')}`,
        )
      row('geojson text', [
        mib(Buffer.byteLength(gjWeb.value)),
        mib(gjIpc.value.byteLength),
        (gjEnc.ms + gjWeb.ms).toFixed(1),
        (gjEnc.ms + gjIpc.ms).toFixed(1),
        gjWebDec.ms.toFixed(1),
        gjIpcDec.ms.toFixed(1),
      ])
      row('flatgeobuf', [
        mib(Buffer.byteLength(fgbWeb.value)),
        mib(fgbIpc.value.byteLength),
        (fgbRead.ms + fgbWeb.ms).toFixed(1),
        (fgbRead.ms + fgbIpc.ms).toFixed(1),
        fgbWebDec.ms.toFixed(1),
        fgbIpcDec.ms.toFixed(1),
      ])
    }
  } finally {
    await fs.rm(dir, { recursive: true, force: true })
  }
}

await main()
