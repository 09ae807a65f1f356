import { promises as fs } from 'node:fs'
import { DatasetTally, FlatGeobufFileWriter } from '../workspace/fgb-stream'
import type { DatasetFeature, FieldInfo } from '../workspace/features'
import type { StagedDataset, Workspace } from '../workspace/workspace'
import { ImportError, type Reprojector } from './crs'
import { GeoJsonScanner } from './geojson-scan'
import { geometryNamedRenames, renameProperties } from './geometry-named'
import { NdjsonLineSplitter } from './ndjson-scan'
import { featureCandidate, GEOMETRY_TYPE_NAMES, geojsonCrs, notGeoJsonType } from './readers'
import { checkCandidate, ValidationTally, type Candidate } from './validate'

/**
 * A GeoJSON or NDJSON file imported as it streams, never held whole (as `csv-import.ts` does a CSV): a first
 * pass reads, checks and tallies each feature, a second reads the file again and writes the valid ones to
 * `data.fgb`. The dataset is the one reading the file whole makes (`readImportFile` then `Workspace.stage`).
 *
 * What decides how a GeoJSON's features are read may come after them in the file — its `crs`, its `type`
 * (a bare Feature may have a foreign member named `features`), a second `features` member (the last one
 * counts), a property named as the geometry column (renamed by the names of every feature) — so each pass
 * follows a plan, and a first pass that learns its plan was wrong runs again with the right one (at most
 * once more: the plan is then what the whole file says).
 */

/** How many bytes of the file are read at a time. */
export const JSON_CHUNK_BYTES = 1 << 18

export type JsonFormat = 'geojson' | 'ndjson'

interface Plan {
  /** Whether `occurrence` and `collection` are what the file says (else guessed while reading). */
  known: boolean
  /** Which `features` member holds the features (counting every one, from 0). */
  occurrence: number
  /** Whether the document is a FeatureCollection (else a bare Feature or geometry). */
  collection: boolean
  /** The `crs` member as JSON (`undefined` without one) and the reprojection it asks for. */
  crsKey: string
  reproject: Reprojector
  renames: Map<string, string>
}

const FIRST_PLAN: Plan = {
  known: false,
  occurrence: 0,
  collection: true,
  crsKey: 'undefined',
  reproject: undefined,
  renames: new Map(),
}

/** Every byte of `file`, `chunkBytes` at a time, then an empty final piece; `afterChunk` awaited after each. */
async function readChunks(
  file: string,
  chunkBytes: number,
  push: (bytes: Uint8Array, final: boolean) => void,
  afterChunk: () => Promise<void>,
): Promise<void> {
  const handle = await fs.open(file, 'r')
  try {
    const buffer = Buffer.allocUnsafe(chunkBytes)
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, chunkBytes, null)
      if (bytesRead === 0) break
      push(buffer.subarray(0, bytesRead), false)
      await afterChunk()
    }
    push(new Uint8Array(0), true)
    await afterChunk()
  } finally {
    await handle.close()
  }
}

/**
 * One pass over a GeoJSON file: `onCandidate` for each feature the plan reads, in order; the plan the file
 * asks for when it is not `plan` (then the candidates were the wrong ones).
 */
async function geojsonPass(
  file: string,
  plan: Plan,
  onCandidate: (candidate: Candidate) => void,
  afterChunk: () => Promise<void>,
  chunkBytes: number,
): Promise<Plan | undefined> {
  // The top-level members but the features, as own keys (a member named `__proto__` too).
  const top: Record<string, unknown> = {}
  let occurrences = 0
  let lastIsArray = false
  let streamed: number | undefined
  const scanner = new GeoJsonScanner({
    member(key, value) {
      if (key === 'features') {
        occurrences++
        lastIsArray = false
      }
      Object.defineProperty(top, key, { value, enumerable: true, writable: true, configurable: true })
    },
    featuresStart(occurrence) {
      occurrences = occurrence + 1
      lastIsArray = true
      const collection = plan.known
        ? plan.collection
        : top.type === undefined || top.type === 'FeatureCollection'
      if (!collection || occurrence !== plan.occurrence) return false
      streamed = occurrence
      return true
    },
    feature(value, index) {
      onCandidate(featureCandidate(value, `feature ${index}`, false))
    },
  })
  await readChunks(file, chunkBytes, (bytes, final) => scanner.push(bytes, final), afterChunk)
  const crsKey = String(JSON.stringify(top.crs))
  const type = top.type
  let right: boolean
  let collection: boolean
  if (type === 'FeatureCollection') {
    if (!lastIsArray) throw new ImportError('a FeatureCollection needs a features array')
    collection = true
    right = streamed === occurrences - 1
  } else if (type === 'Feature' || GEOMETRY_TYPE_NAMES.includes(type as string)) {
    collection = false
    right = streamed === undefined
  } else throw notGeoJsonType(type)
  if (right && crsKey === plan.crsKey) {
    if (!collection) onCandidate(featureCandidate(top, 'feature 0', true))
    return undefined
  }
  return {
    known: true,
    occurrence: occurrences - 1,
    collection,
    crsKey,
    reproject: geojsonCrs(top),
    renames: plan.renames,
  }
}

/** One pass over an NDJSON file or GeoJSON text sequence: `onCandidate` for each line that is not blank. */
async function ndjsonPass(
  file: string,
  onCandidate: (candidate: Candidate) => void,
  afterChunk: () => Promise<void>,
  chunkBytes: number,
): Promise<undefined> {
  const lines = new NdjsonLineSplitter((text, line) => {
    if (text.trim() === '') return
    const where = `line ${line}`
    let value: unknown
    try {
      let from = 0
      while (text.charCodeAt(from) === 0x1e) from++
      value = JSON.parse(from > 0 ? text.slice(from) : text)
    } catch (error) {
      onCandidate({ where, problem: `malformed JSON (${(error as Error).message.slice(0, 80)})` })
      return
    }
    onCandidate(featureCandidate(value, where, true))
  })
  await readChunks(file, chunkBytes, (bytes, final) => lines.push(bytes, final), afterChunk)
  return undefined
}

/** Which features of a pass are valid, by position: a bit per feature, grown as they come. */
class ValidMarks {
  private bits = new Uint8Array(1024)
  set(at: number): void {
    if (at >= this.bits.length) {
      const grown = new Uint8Array(Math.max(this.bits.length * 2, at + 1))
      grown.set(this.bits)
      this.bits = grown
    }
    this.bits[at] = 1
  }
  has(at: number): boolean {
    return this.bits[at] === 1
  }
}

const sameRenames = (a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>) =>
  a.size === b.size && [...a].every(([k, v]) => b.get(k) === v)

/** Stage a GeoJSON or NDJSON file as a dataset in `dir` (a fresh staging folder by default), streaming it. */
export async function stageJsonStreamed(
  workspace: Workspace,
  file: string,
  format: JsonFormat,
  name: string,
  options: { source: string; skipInvalid?: boolean },
  dir?: string,
  /** Called when the file is read and checked, before the dataset is written. */
  onChecked: () => void = () => {},
  chunkBytes = JSON_CHUNK_BYTES,
): Promise<StagedDataset> {
  const before = await fs.stat(file)
  const pass = (plan: Plan, onCandidate: (c: Candidate) => void, afterChunk = async () => {}) =>
    format === 'geojson'
      ? geojsonPass(file, plan, onCandidate, afterChunk, chunkBytes)
      : ndjsonPass(file, onCandidate, afterChunk, chunkBytes)

  let plan = FIRST_PLAN
  let checked: { validation: ValidationTally; tally: DatasetTally; valid: ValidMarks } | undefined
  for (let attempt = 0; !checked; attempt++) {
    if (attempt > 2) throw new Error(`${file}: the plan to read it did not settle (changed while read?)`)
    const validation = new ValidationTally()
    const tally = new DatasetTally()
    const valid = new ValidMarks()
    const { reproject, renames } = plan
    let at = 0
    const next = await pass(plan, (candidate) => {
      const result = checkCandidate(candidate, reproject)
      if (validation.add(candidate.where, result)) {
        valid.set(at)
        if (renames.size > 0) renameProperties(result, renames)
        tally.add(result)
      }
      at++
    })
    const renamesWanted = geometryNamedRenames(validation.names)
    if (next) plan = next
    else if (!sameRenames(renamesWanted, renames)) plan = { ...plan, renames: renamesWanted }
    else checked = { validation, tally, valid }
  }
  const { validation, tally, valid } = checked
  const skippedInvalid = validation.finish(options)
  onChecked()
  const final = plan
  const writeData = async (target: string, fields: FieldInfo[]) => {
    const writer = await FlatGeobufFileWriter.open(target, tally.fileType, fields, tally.count)
    try {
      let at = 0
      await pass(
        final,
        (candidate) => {
          if (!valid.has(at++)) return
          // A valid feature without reprojection is its geometry and properties as they came.
          const feature: DatasetFeature = final.reproject
            ? (checkCandidate(candidate, final.reproject) as DatasetFeature)
            : {
                geometry: (candidate.geometry ?? null) as DatasetFeature['geometry'],
                properties: (candidate.properties ?? {}) as DatasetFeature['properties'],
              }
          if (final.renames.size > 0) renameProperties(feature, final.renames)
          writer.addSync(feature)
        },
        async () => {
          if (writer.full) await writer.flush()
        },
      )
      const after = await fs.stat(file)
      if (after.size !== before.size || after.mtimeMs !== before.mtimeMs)
        throw new ImportError(`${file} changed while it was imported; nothing was imported`)
    } catch (error) {
      await writer.abort()
      throw error
    }
    await writer.close()
  }
  return workspace.stageStreamed(name, tally, writeData, { source: options.source, skippedInvalid }, dir)
}
