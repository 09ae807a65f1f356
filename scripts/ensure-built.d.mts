export function isStale(): boolean
export function ensureBuilt(): void
