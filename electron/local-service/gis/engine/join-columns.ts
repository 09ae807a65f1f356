// The fields a join reads and the columns it writes (split from join.ts, issue 28): field checks, and the
// selection of columns mapped onto prop1…prop8.
import type { JoinParams } from '../../../contract/gis/join-params'
import { isGeometryColumn } from '../../workspace/features'
import type { FeatureTable } from './feature-table'
import { JoinInputError } from './join-input'

export function requireField(table: FeatureTable, name: string, param: string): void {
  if (!table.fields.includes(name)) {
    const known = table.fields.slice(0, 20).join(', ')
    throw new JoinInputError(
      400,
      `${param} "${name}" is not a field of dataset ${table.name}; fields: ${known}`,
      param,
    )
  }
}

export function requireGeometryColumn(name: string | undefined, param: string, table: FeatureTable): void {
  if (name !== undefined && !isGeometryColumn(name)) {
    throw new JoinInputError(
      400,
      `${param} "${name}" is not the geometry column of dataset ${table.name}; a spatial query reads the geometry column "geom"`,
      param,
    )
  }
}

/** The columns of the result, in order, mapped onto prop1…prop8. */
export interface Selection {
  columns: Array<{ table: 'source' | 'ref'; name: string; geometry: boolean }>
}

export const MAX_SELECTED = 8

function splitNames(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
}

/**
 * `selectionParamSource` then `selectionParamRef`, in order, onto prop1…prop8; without either, the first
 * eight fields of the source dataset. A geometry column name selects the geometry as WKT.
 */
export function selection(params: JoinParams, source: FeatureTable, ref?: FeatureTable): Selection {
  const fromSource = splitNames(params.selectionParamSource)
  const fromRef = splitNames(params.selectionParamRef)
  const columns: Selection['columns'] = []
  if (fromSource.length === 0 && fromRef.length === 0) {
    for (const name of source.fields.slice(0, MAX_SELECTED))
      columns.push({ table: 'source', name, geometry: false })
    return { columns }
  }
  for (const name of fromSource) {
    if (!isGeometryColumn(name)) requireField(source, name, 'selectionParamSource')
    columns.push({ table: 'source', name, geometry: isGeometryColumn(name) })
  }
  for (const name of fromRef) {
    if (!ref)
      throw new JoinInputError(400, 'selectionParamRef needs a reference dataset', 'selectionParamRef')
    if (!isGeometryColumn(name)) requireField(ref, name, 'selectionParamRef')
    columns.push({ table: 'ref', name, geometry: isGeometryColumn(name) })
  }
  if (columns.length > MAX_SELECTED) {
    throw new JoinInputError(
      400,
      `selectionParamSource and selectionParamRef name ${columns.length} properties; the result holds at most ${MAX_SELECTED} (prop1…prop8)`,
      fromSource.length > MAX_SELECTED ? 'selectionParamSource' : 'selectionParamRef',
    )
  }
  return { columns }
}
