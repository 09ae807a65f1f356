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
    layout.bottomTab = 'gis.history'
    await nextTick()
    expect(JSON.parse(localStorage.getItem(LAYOUT_STORAGE_KEY)!)).toEqual({
      activeArea: 'gis',
      sideOpen: true,
      bottomOpen: false,
      bottomTab: 'gis.history',
    })
    setActivePinia(createPinia())
    const again = useShellStore()
    expect([again.activeArea, again.bottomOpen, again.bottomTab]).toEqual(['gis', false, 'gis.history'])
    // Settings is not part of the layout: it opens only when asked.
    expect(again.settingsOpen).toBe(false)
  })

  it('falls back to the default layout for anything it did not write', () => {
    localStorage.setItem(LAYOUT_STORAGE_KEY, '{not json')
    expect(readLayout()).toEqual({ activeArea: null, sideOpen: true, bottomOpen: true, bottomTab: null })
    localStorage.setItem(
      LAYOUT_STORAGE_KEY,
      JSON.stringify({ activeArea: 7, sideOpen: 'yes', bottomTab: 'x'.repeat(500) }),
    )
    expect(readLayout()).toEqual({ activeArea: null, sideOpen: true, bottomOpen: true, bottomTab: null })
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
