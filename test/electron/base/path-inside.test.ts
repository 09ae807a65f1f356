import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { isInside } from '../../../electron/base/path-inside'

describe('isInside', () => {
  const root = path.resolve('/srv/imports')
  it('takes the folder itself and anything under it, a name starting with two dots included', () => {
    expect(isInside(root, root)).toBe(true)
    expect(isInside(path.join(root, 'a.geojson'), root)).toBe(true)
    expect(isInside(path.join(root, 'deep', 'b.csv'), root)).toBe(true)
    expect(isInside(path.join(root, '..hidden.csv'), root)).toBe(true)
  })
  it('refuses the parent, a sibling sharing the prefix, and paths elsewhere', () => {
    expect(isInside(path.resolve('/srv'), root)).toBe(false)
    expect(isInside(path.resolve('/srv/imports-old/a.csv'), root)).toBe(false)
    expect(isInside(path.resolve('/srv/imports/../secret.csv'), root)).toBe(false)
    expect(isInside(path.resolve('/etc/passwd'), root)).toBe(false)
  })
})
