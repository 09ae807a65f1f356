import path from 'node:path'
import { addUser } from '../../../../electron/local-service/team/users-file'

/** Users `ann` and `bob` (all groups) and `rita` (read-only) in a users file in `dir`; their tokens. */
export async function teamUsers(dir: string): Promise<{ file: string; tokens: Record<string, string> }> {
  const file = path.join(dir, 'users.json')
  const tokens: Record<string, string> = {}
  for (const [name, readOnly] of [
    ['ann', false],
    ['bob', false],
    ['rita', true],
  ] as const)
    tokens[name] = (await addUser(file, { name, readOnly })).token
  return { file, tokens }
}

/** The join query saving `places` within `zones` as `name`. */
export const saveQuery = (name: string): URLSearchParams =>
  new URLSearchParams({
    queryType: 'spatialOperation',
    datasetSource: 'places',
    datasetRef: 'zones',
    operator: 'Within',
    sourceProperty: 'geom',
    selectionParamSource: 'id,name',
    selectionParamRef: 'zone',
    saveAsNewDataset: 'true',
    newDatasetNme: name,
  })

export const bearer = (token: string, json = false): Record<string, string> => ({
  authorization: `Bearer ${token}`,
  ...(json ? { 'content-type': 'application/json' } : {}),
})
