import { afterEach, vi } from 'vitest'
import { defineComponent, h, type Component } from 'vue'
import fleetArea from '../../../../src/features/telematics/area'
import { useFleetStore } from '../../../../src/features/telematics/fleet-store'
import { createTestApp, renderInApp } from '../../support/render'

/** Components of the fleet area rendered side by side, in an app with the fleet area registered. */
export function renderFleet(...components: Component[]) {
  const app = createTestApp([fleetArea])
  const Both = defineComponent({
    setup: () => () =>
      h(
        'div',
        components.map((c) => h(c)),
      ),
  })
  return renderInApp(Both, { app })
}

afterEach(() => {
  try {
    useFleetStore().stop()
  } catch {
    // No Pinia was made active in this test.
  }
  vi.useRealTimers()
})
