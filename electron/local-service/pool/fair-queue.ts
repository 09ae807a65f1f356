/** What the fair queue needs to know of a waiting item: whose it is, and its lane. */
export interface FairItem {
  /** The user the item belongs to (`currentPrincipal()?.user ?? 'local'`). */
  user: string
  /** Small items wait in a lane of their own, served before large ones. */
  small: boolean
}

interface UserQueue<T> {
  user: string
  small: T[]
  large: T[]
}

/**
 * Waiting items of several users, taken in turn across users: each user's items in arrival order, small ones
 * before large ones. The next item is the head of the user served longest ago (one never served, or not
 * since the records were trimmed, first; then the one that joined first): one user's many items wait behind
 * each other, never in front of another user's next item.
 */
export class FairQueue<T extends FairItem> {
  /** Users with items waiting, in the order they joined (one that left and came back joins at the end). */
  private readonly users = new Map<string, UserQueue<T>>()
  /** When each user was last served (a counter): the turn goes to the smallest. */
  private readonly served = new Map<string, number>()
  private turns = 0
  private count = 0

  get length(): number {
    return this.count
  }

  /** Items `user` has waiting. */
  waitingOf(user: string): number {
    const q = this.users.get(user)
    return q ? q.small.length + q.large.length : 0
  }

  push(item: T): void {
    let q = this.users.get(item.user)
    if (!q) {
      q = { user: item.user, small: [], large: [] }
      this.users.set(item.user, q)
    }
    ;(item.small ? q.small : q.large).push(item)
    this.count++
  }

  /** Take `item` out wherever it waits; false when it was not waiting. */
  remove(item: T): boolean {
    const q = this.users.get(item.user)
    const lane = q ? (item.small ? q.small : q.large) : []
    const at = lane.indexOf(item)
    if (at < 0) return false
    lane.splice(at, 1)
    this.settle(q!)
    return true
  }

  /**
   * The next item to start, taken out of the queue: the small lane first, then the large one; in each, the
   * head of the items of the user whose turn it is, skipping users `skip` names (past their share of places)
   * and items `fits` refuses (no place for them now). Undefined when nothing may start.
   */
  take(fits: (item: T) => boolean, skip: (user: string) => boolean = () => false): T | undefined {
    for (const lane of ['small', 'large'] as const) {
      let best: UserQueue<T> | undefined
      let bestTurn = Infinity
      for (const q of this.users.values()) {
        const head = q[lane][0]
        const turn = this.served.get(q.user) ?? -1
        if (!head || turn >= bestTurn || skip(q.user) || !fits(head)) continue
        best = q
        bestTurn = turn
      }
      if (!best) continue
      const head = best[lane].shift()!
      this.served.set(best.user, this.turns++)
      this.settle(best)
      return head
    }
    return undefined
  }

  /** Every waiting item, taken out (the pool is closing). */
  drain(): T[] {
    const all = [...this.users.values()].flatMap((q) => [...q.small, ...q.large])
    this.users.clear()
    this.count = 0
    return all
  }

  /** One item fewer; a user with nothing left waiting leaves the queue (its last turn is remembered). */
  private settle(q: UserQueue<T>): void {
    this.count--
    if (q.small.length + q.large.length > 0) return
    this.users.delete(q.user)
    // The records stay small: past 1,000 users, those with nothing waiting are forgotten (they count as
    // never served, which only moves them ahead of users that are waiting now, once).
    if (this.served.size > 1000)
      for (const user of this.served.keys()) if (!this.users.has(user)) this.served.delete(user)
  }
}
