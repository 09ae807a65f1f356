// The browser host serves the built renderer: build it first when it is missing or stale.
import { ensureBuilt } from '../../scripts/ensure-built.mjs'

export default function setup(): void {
  ensureBuilt()
}
