import { describe, expect, it } from 'vitest'
import { FairQueue } from '../../../../electron/local-service/pool/fair-queue'

interface Item {
  user: string
  small: boolean
  tag: string
}
const item = (user: string, tag: string, small = false): Item => ({ user, small, tag })
const all = () => true

/** Take everything, in the order the queue gives it. */
function takeAll(q: FairQueue<Item>): string[] {
  const out: string[] = []
  for (let next = q.take(all); next; next = q.take(all)) out.push(next.tag)
  return out
}

describe('FairQueue', () => {
  it('takes users in turn, each user’s items in arrival order', () => {
    const q = new FairQueue<Item>()
    for (let i = 0; i < 4; i++) q.push(item('a', `a${i}`))
    q.push(item('b', 'b0'))
    q.push(item('c', 'c0'))
    q.push(item('b', 'b1'))
    expect(q.waitingOf('a')).toBe(4)
    expect(takeAll(q)).toEqual(['a0', 'b0', 'c0', 'a1', 'b1', 'a2', 'a3'])
    expect(q.length).toBe(0)
  })

  it('a user arriving while another has many waiting goes next, not after them', () => {
    const q = new FairQueue<Item>()
    for (let i = 0; i < 20; i++) q.push(item('a', `a${i}`))
    expect(q.take(all)?.tag).toBe('a0')
    q.push(item('b', 'b0'))
    expect(q.take(all)?.tag).toBe('b0')
    expect(q.take(all)?.tag).toBe('a1')
  })

  it('small items go before large ones, in turn among users', () => {
    const q = new FairQueue<Item>()
    q.push(item('a', 'aL0'))
    q.push(item('a', 'aS0', true))
    q.push(item('b', 'bL0'))
    q.push(item('b', 'bS0', true))
    q.push(item('a', 'aS1', true))
    expect(takeAll(q)).toEqual(['aS0', 'bS0', 'aS1', 'bL0', 'aL0'])
  })

  it('skips what may not start now and users at their share, keeping the turn', () => {
    const q = new FairQueue<Item>()
    q.push(item('a', 'aL0'))
    q.push(item('b', 'bS0', true))
    q.push(item('c', 'cL0'))
    // Only small items fit: b's goes, though a's turn came first.
    expect(q.take((i) => i.small)?.tag).toBe('bS0')
    // c is skipped (at its share): a goes.
    expect(q.take(all, (user) => user === 'c')?.tag).toBe('aL0')
    expect(q.take(all, (user) => user === 'c')).toBeUndefined()
    expect(q.take(all)?.tag).toBe('cL0')
  })

  it('removing an item (a cancelled job) keeps the turn where it was', () => {
    const q = new FairQueue<Item>()
    const b0 = item('b', 'b0')
    q.push(item('a', 'a0'))
    q.push(b0)
    q.push(item('c', 'c0'))
    q.push(item('a', 'a1'))
    expect(q.take(all)?.tag).toBe('a0')
    expect(q.remove(b0)).toBe(true)
    expect(q.remove(b0)).toBe(false)
    expect(takeAll(q)).toEqual(['c0', 'a1'])
  })

  it('drain gives back every waiting item and empties the queue', () => {
    const q = new FairQueue<Item>()
    q.push(item('a', 'a0'))
    q.push(item('b', 'b0', true))
    expect(
      q
        .drain()
        .map((i) => i.tag)
        .sort(),
    ).toEqual(['a0', 'b0'])
    expect(q.length).toBe(0)
    expect(q.take(all)).toBeUndefined()
  })
})
