import { describe, expect, it } from 'vitest'
import { movedIndex } from '../../../src/kit/roving-focus'

describe('arrow-key movement in a tablist or toolbar', () => {
  it('moves along the orientation, wraps at the ends, and jumps with Home and End', () => {
    expect(movedIndex('ArrowRight', 0, 3, 'horizontal')).toBe(1)
    expect(movedIndex('ArrowRight', 2, 3, 'horizontal')).toBe(0)
    expect(movedIndex('ArrowLeft', 0, 3, 'horizontal')).toBe(2)
    expect(movedIndex('ArrowDown', 1, 3, 'vertical')).toBe(2)
    expect(movedIndex('ArrowUp', 0, 3, 'vertical')).toBe(2)
    expect(movedIndex('Home', 2, 3, 'vertical')).toBe(0)
    expect(movedIndex('End', 0, 3, 'horizontal')).toBe(2)
  })

  it('leaves other keys, the cross axis and empty widgets alone', () => {
    expect(movedIndex('ArrowDown', 0, 3, 'horizontal')).toBeNull()
    expect(movedIndex('ArrowRight', 0, 3, 'vertical')).toBeNull()
    expect(movedIndex('Tab', 0, 3, 'vertical')).toBeNull()
    expect(movedIndex('ArrowRight', 0, 0, 'horizontal')).toBeNull()
  })
})
