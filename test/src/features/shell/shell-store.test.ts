import { createPinia, setActivePinia } from 'pinia'
import { nextTick } from 'vue'
import { beforeEach, describe, expect, it } from 'vitest'
import { LAYOUT_STORAGE_KEY, readLayout, useShellStore } from '../../../../src/features/shell/shell-store'

describe('the shell’s layout store', () => {
  beforeEach(() => {
    localStorage.clear()
    setActivePinia(createPinia())
  })

  it('keeps which area, regions and bottom tab are open, and finds them again after a restart', async () => {
    const layout = useShellStore()
    expect([layout.activeArea, layout.sideOpen, layout.bottomOpen, layout.bottomTab]).toEqual([
      null,
      true,
      true,
      null,
    ])
    layout.chooseArea('gis')
    layout.bottomOpen = false
    layout.chooseBottomTab('gis', 'gis.history')
    layout.rememberBottomTab('telematics', 'telematics.alerts')
    await nextTick()
    expect(JSON.parse(localStorage.getItem(LAYOUT_STORAGE_KEY)!)).toEqual({
      activeArea: 'gis',
      sideOpen: true,
      bottomOpen: false,
      bottomTab: 'gis.history',
      bottomTabs: { gis: 'gis.history', telematics: 'telematics.alerts' },
    })
    setActivePinia(createPinia())
    const again = useShellStore()
    expect([again.activeArea, again.bottomOpen, again.bottomTab]).toEqual(['gis', false, 'gis.history'])
    // Each area's bottom tab chosen last comes back with it.
    expect(again.bottomTabs).toEqual({ gis: 'gis.history', telematics: 'telematics.alerts' })
    // Settings is not part of the layout: it opens only when asked.
    expect(again.settingsOpen).toBe(false)
  })

  it('falls back to the default layout for anything it did not write', () => {
    const defaults = { activeArea: null, sideOpen: true, bottomOpen: true, bottomTab: null, bottomTabs: {} }
    localStorage.setItem(LAYOUT_STORAGE_KEY, '{not json')
    expect(readLayout()).toEqual(defaults)
    localStorage.setItem(
      LAYOUT_STORAGE_KEY,
      JSON.stringify({ activeArea: 7, sideOpen: 'yes', bottomTab: 'x'.repeat(500), bottomTabs: ['gis'] }),
    )
    expect(readLayout()).toEqual(defaults)
    // An area's remembered tab is kept only when it is text of a sane length.
    localStorage.setItem(
      LAYOUT_STORAGE_KEY,
      JSON.stringify({ bottomTabs: { gis: 'gis.results', fleet: 3, routing: 'x'.repeat(500) } }),
    )
    expect(readLayout().bottomTabs).toEqual({ gis: 'gis.results' })
  })

  it('counts Settings requests, so asking for the same credential twice moves focus again', () => {
    const layout = useShellStore()
    layout.openSettings('credentials', 'token.gis')
    const first = layout.settingsRequest.seq
    layout.openSettings('credentials', 'token.gis')
    expect(layout.settingsRequest).toEqual({
      section: 'credentials',
      credential: 'token.gis',
      seq: first + 1,
    })
    expect(layout.settingsOpen).toBe(true)
  })
})
