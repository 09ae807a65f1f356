import { promises as fs } from 'node:fs'
import { DatasetTally, FlatGeobufFileWriter } from '../workspace/fgb-stream'
import { coerce, isGeometryColumn, type DatasetFeature, type FieldInfo } from '../workspace/features'
import type { StagedDataset, Workspace } from '../workspace/workspace'
import { ImportError } from './crs'
import { csvCandidate, csvLayout, typed, type CsvLayout } from './csv-rows'
import { CSV_CHUNK_BYTES, forEachCsvRow } from './csv-stream'
import { checkCandidate, ValidationTally } from './validate'

/**
 * A CSV imported as it streams, never held whole: the first pass reads, checks and tallies each row (the
 * checks and messages of `validateFeatures`, the fields of `inferFields`, the boxes of `buildIndex`), the
 * second reads the file again and writes the valid rows to `data.fgb`. The dataset is the one reading the
 * file whole makes (`readImportFile` then `Workspace.stage`), file for file.
 */

/**
 * The layout with attributes named as the geometry column renamed as `keepGeometryNamedProperties`
 * renames them (every row has every attribute, so the names alone decide).
 */
function withGeometryNamesKept(layout: CsvLayout): CsvLayout {
  const attributes = layout.names.filter((n): n is string => n !== undefined)
  const taken = new Set(attributes)
  const renamed = new Map<string, string>()
  for (const name of attributes) {
    if (!isGeometryColumn(name) || renamed.has(name)) continue
    let n = 2
    while (taken.has(`${name}_${n}`)) n++
    renamed.set(name, `${name}_${n}`)
    taken.add(`${name}_${n}`)
  }
  if (renamed.size === 0) return layout
  const names = layout.names.map((n) => (n === undefined ? n : (renamed.get(n) ?? n)))
  return { ...layout, names, protoNamed: names.includes('__proto__') }
}

/** Counters a test reads: the most rows the reader handed over at once. */
export interface CsvStreamStats {
  largestBatch: number
}

/** Stage a CSV file as a dataset in `dir` (a fresh staging folder by default), streaming it twice. */
export async function stageCsvStreamed(
  workspace: Workspace,
  file: string,
  name: string,
  options: { source: string; skipInvalid?: boolean },
  dir?: string,
  /** Called when the file is read and checked, before the dataset is written. */
  onChecked: () => void = () => {},
  stats: CsvStreamStats = { largestBatch: 0 },
  chunkBytes = CSV_CHUNK_BYTES,
): Promise<StagedDataset> {
  const before = await fs.stat(file)
  const validation = new ValidationTally()
  const tally = new DatasetTally()
  let valid = new Uint8Array(1024)
  const markValid = (at: number) => {
    if (at >= valid.length) {
      const grown = new Uint8Array(valid.length * 2)
      grown.set(valid)
      valid = grown
    }
    valid[at] = 1
  }
  let layout: CsvLayout | undefined
  // What each attribute column held in the valid rows: 1 numbers, 2 texts (3 both; empty cells neither).
  let kinds = new Uint8Array(0)
  let row = 0
  await forEachCsvRow(
    file,
    async (rows) => {
      stats.largestBatch = Math.max(stats.largestBatch, rows.length)
      let from = 0
      if (!layout && rows.length > 0) {
        layout = withGeometryNamesKept(await csvLayout(rows[0]!))
        kinds = new Uint8Array(layout.names.length)
        from = 1
      }
      if (!layout) return
      const { width, lonAt, latAt, names } = layout
      // A longitude/latitude row whose coordinates are in range, in a file whose attribute names are
      // not empty, is valid (the checks could find nothing): tallied from its cells, once a valid row
      // has been checked whole (so the field names are counted).
      const fast = layout.wktAt < 0 && !names.some((n) => n !== undefined && n.trim() === '')
      const columns = names.flatMap((n, j) => (n === undefined ? [] : [j]))
      const attributes = columns.map((j) => names[j]!)
      const values = new Array<unknown>(columns.length)
      for (let k = from; k < rows.length; k++, row++) {
        const cells = rows[k]!
        if (fast && validation.valid > 0 && cells.length === width) {
          const lon = cells[lonAt]!.trim()
          const lat = cells[latAt]!.trim()
          const x = lon === '' ? NaN : Number(lon)
          const y = lat === '' ? NaN : Number(lat)
          if (x >= -180 && x <= 180 && y >= -90 && y <= 90) {
            for (let i = 0; i < columns.length; i++) {
              const value = typed(cells[columns[i]!]!)
              values[i] = value
              if (value !== null) kinds[i]! |= typeof value === 'number' ? 1 : 2
            }
            validation.addValidLikeBefore()
            tally.addPoint(x, y, attributes, values)
            markValid(row)
            continue
          }
        }
        const candidate = csvCandidate(layout, cells, row)
        const result = checkCandidate(candidate, undefined)
        if (!validation.add(candidate.where, result)) continue
        markValid(row)
        tally.add(result)
        for (let i = 0; i < columns.length; i++) {
          const value = typed(cells[columns[i]!]!)
          if (value !== null) kinds[i]! |= typeof value === 'number' ? 1 : 2
        }
      }
    },
    chunkBytes,
  )
  if (!layout) throw new ImportError('the CSV is empty')
  const skippedInvalid = validation.finish(options)
  onChecked()
  const rowLayout = layout
  const writeData = async (target: string, fields: FieldInfo[]) => {
    const writer = await FlatGeobufFileWriter.open(target, tally.fileType, fields, tally.count)
    // Longitude/latitude rows go straight from their cells to the file when the fields are the
    // attributes in column order (as every row has every attribute, they are).
    const columns = rowLayout.names.flatMap((n, j) => (n === undefined ? [] : [j]))
    const direct =
      rowLayout.wktAt < 0 &&
      columns.length === fields.length &&
      columns.every((j, i) => rowLayout.names[j] === fields[i]!.name)
    try {
      let at = 0
      let header = true
      const values = new Array<unknown>(columns.length)
      await forEachCsvRow(
        file,
        async (rows) => {
          for (let k = header ? 1 : 0; k < rows.length; k++, at++) {
            if (valid[at] !== 1) continue
            const row = rows[k]!
            const lon = direct ? row[rowLayout.lonAt]!.trim() : ''
            if (lon !== '') {
              // A column of numbers only is its cells' numbers, one of texts only its cells, as they are:
              // what typing each cell and coercing it to the field's type gives, without the test.
              for (let i = 0; i < columns.length; i++) {
                const cell = row[columns[i]!]!
                const kind = kinds[i]
                values[i] =
                  cell === ''
                    ? null
                    : kind === 1
                      ? Number(cell)
                      : kind === 2
                        ? cell
                        : coerce(typed(cell), fields[i]!.type)
              }
              writer.addPointSync(Number(lon), Number(row[rowLayout.latAt]!.trim()), values)
              continue
            }
            const candidate = csvCandidate(rowLayout, row, at)
            // A longitude/latitude row that passed is kept as it is; a WKT one may read EMPTY as none.
            const feature =
              rowLayout.wktAt >= 0
                ? (checkCandidate(candidate, undefined) as DatasetFeature)
                : (candidate as DatasetFeature)
            writer.addSync(feature)
          }
          if (rows.length > 0) header = false
          if (writer.full) await writer.flush()
        },
        chunkBytes,
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
