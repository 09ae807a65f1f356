import { describe, expect, it, vi } from 'vitest'
import { h } from 'vue'
import { createShell, createShellWith, defineArea } from '../../../../src/features/shell/shell'

const panel = (id: string, order?: number) => ({
  id,
  title: id,
  component: { render: () => h('p', id) },
  ...(order === undefined ? {} : { order }),
})

describe('the shell registry', () => {
  it('lists areas by their order, and each region’s panels by theirs, registration breaking ties', () => {
    const shell = createShellWith([
      defineArea({ id: 'vision', title: 'Vision', icon: '', order: 50, bottomPanels: [panel('vision.a')] }),
      defineArea({
        id: 'gis',
        title: 'Spatial analytics',
        icon: '',
        order: 40,
        sidePanels: [panel('gis.second', 2), panel('gis.first', 1)],
        bottomPanels: [panel('gis.x'), panel('gis.y')],
      }),
      defineArea({ id: 'places', title: 'Places', icon: '', order: 10 }),
    ])
    expect(shell.areas.map((a) => a.id)).toEqual(['places', 'gis', 'vision'])
    expect(shell.sidePanels('gis').map((p) => p.id)).toEqual(['gis.first', 'gis.second'])
    expect(shell.bottomPanels().map((p) => p.id)).toEqual(['gis.x', 'gis.y', 'vision.a'])
    expect(shell.findPanel('vision.a')).toMatchObject({ area: { id: 'vision' }, region: 'bottom' })
    expect(shell.findPanel('nowhere')).toBeNull()
  })

  it('refuses an area or a panel id registered twice, and a second handler for an action', () => {
    const shell = createShellWith([
      defineArea({ id: 'gis', title: 'GIS', icon: '', sidePanels: [panel('p')] }),
    ])
    expect(() => shell.register(defineArea({ id: 'gis', title: 'again', icon: '' }))).toThrow(
      'the area "gis" is registered twice',
    )
    expect(() =>
      shell.register(defineArea({ id: 'other', title: 'x', icon: '', bottomPanels: [panel('p')] })),
    ).toThrow('the panel id "p" is registered twice')
    shell.handle('map.flyTo', () => {})
    expect(() => shell.handle('map.flyTo', () => {})).toThrow('already has a handler')
  })

  it('runs a typed action through its one handler, and says so when nothing handles it', async () => {
    const shell = createShell()
    await expect(shell.run('settings.open', { section: 'credentials' })).rejects.toThrow(
      'no handler for the shell action "settings.open"',
    )
    const handler = vi.fn()
    const stop = shell.handle('settings.open', handler)
    await shell.run('settings.open', { section: 'credentials', credential: 'token.gis' })
    expect(handler).toHaveBeenCalledWith({ section: 'credentials', credential: 'token.gis' })
    stop()
    await expect(shell.run('settings.open', {})).rejects.toThrow('no handler')
  })

  it('registers an area’s own action handlers and starts and stops its wiring once', async () => {
    const zoomed: unknown[] = []
    const stopped = vi.fn()
    const setup = vi.fn(() => stopped)
    const shell = createShellWith([
      defineArea({
        id: 'routing',
        title: 'Routing',
        icon: '',
        actions: { 'map.zoomTo': ({ extent }) => void zoomed.push(extent) },
        setup,
      }),
    ])
    await shell.run('map.zoomTo', { extent: [72, 18, 74, 20] })
    expect(zoomed).toEqual([[72, 18, 74, 20]])
    const stop = shell.start()
    shell.start()
    expect(setup).toHaveBeenCalledTimes(1)
    expect(setup).toHaveBeenCalledWith(shell)
    stop()
    expect(stopped).toHaveBeenCalledTimes(1)
  })
})
