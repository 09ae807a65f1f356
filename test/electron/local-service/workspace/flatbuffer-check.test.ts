import v8 from 'node:v8'
import vm from 'node:vm'
import { describe, expect, it } from 'vitest'
import {
  FlatGeobufError,
  readFlatGeobuf,
  readFlatGeobufTable,
  writeFlatGeobuf,
} from '../../../../electron/local-service/workspace/fgb'
import type { DatasetFeature } from '../../../../electron/local-service/workspace/features'

v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc') as () => void

const features: DatasetFeature[] = Array.from({ length: 20 }, (_, i) => ({
  geometry: { type: 'Point', coordinates: [i, -i] },
  properties: { id: i, name: `P${i}` },
}))
const fields = [
  { name: 'id', type: 'number' as const },
  { name: 'name', type: 'string' as const },
]

/** Where each feature of a file without an index starts (its size prefix). */
function featureStarts(bytes: Uint8Array): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const starts: number[] = []
  let at = 8 + 4 + view.getUint32(8, true)
  while (at < bytes.length) {
    starts.push(at)
    at += 4 + view.getUint32(at, true)
  }
  return starts
}

function readError(read: (bytes: Uint8Array) => unknown, bytes: Uint8Array): Error {
  try {
    read(bytes)
  } catch (error) {
    return error as Error
  }
  throw new Error('read without error')
}

describe('the FlatBuffers check of each feature', () => {
  it('names the damaged feature and what is out of place, for either reader, and reads good files after', () => {
    const good = writeFlatGeobuf(features, fields)
    const starts = featureStarts(good)
    expect(starts).toHaveLength(20)
    const damaged = good.slice()
    // Feature 7's root offset points far past the end of the file.
    new DataView(damaged.buffer).setUint32(starts[7]! + 4, 0x7ffffff0, true)
    const cut = good.slice(0, starts[12]! + 10)
    for (const read of [readFlatGeobuf, readFlatGeobufTable]) {
      const error = readError(read, damaged)
      expect(error).toBeInstanceOf(FlatGeobufError)
      expect(error.message).toBe('feature 7: the root offset points outside the data (truncated or corrupt)')
      expect(readError(read, cut).message).toMatch(/^feature 12 declares \d+ bytes but only 6 remain/)
      expect(readFlatGeobufTable(good).points!.features()).toEqual(features)
    }
  })

  it('keeps no hold on a file once read, good or damaged', async () => {
    const refs = [readAndDrop(false), readAndDrop(true)]
    // A WeakRef holds its target until the current job ends.
    await new Promise((resolve) => setTimeout(resolve, 0))
    gc()
    expect(refs.map((r) => r.deref())).toEqual([undefined, undefined])
  })
})

/** Read a file (damaged or not) with both readers; returns a weak reference to its buffer. */
function readAndDrop(damage: boolean): WeakRef<ArrayBufferLike> {
  const bytes = writeFlatGeobuf(features, fields)
  if (damage) new DataView(bytes.buffer).setUint32(featureStarts(bytes)[3]! + 4, 0x7ffffff0, true)
  for (const read of [readFlatGeobuf, readFlatGeobufTable]) {
    try {
      read(bytes)
    } catch {
      // The damaged file.
    }
  }
  return new WeakRef(bytes.buffer)
}
