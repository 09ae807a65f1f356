import { cleanup, render, screen, waitFor } from '@testing-library/vue'
import userEvent from '@testing-library/user-event'
import { PencilIcon } from '@lucide/vue'
import { afterEach, describe, expect, it } from 'vitest'
import { defineComponent, h } from 'vue'
import IconButton from '../../../src/kit/IconButton.vue'
import Tooltip from '../../../src/kit/Tooltip.vue'

afterEach(cleanup)
const user = userEvent.setup()

/** Two icon buttons side by side, or a plain button with a tooltip inside an open dialog. */
const Harness = defineComponent({
  props: { kind: { type: String, required: true } },
  setup: (props) => () =>
    props.kind === 'pair'
      ? h('div', [
          h(IconButton, { icon: PencilIcon, label: 'First' }),
          h(IconButton, { icon: PencilIcon, label: 'Second', note: 'the second one' }),
        ])
      : h('dialog', { open: true }, [
          h('button', { type: 'button', 'aria-describedby': 'move-tip' }, [
            'Move',
            h(Tooltip, { id: 'move-tip', text: 'Drag, or use ↑ and ↓' }),
          ]),
        ]),
})

/** The text a sighted person reads on the element itself (what axe compares with its name). */
const ownText = (el: Element) => (el.textContent ?? '').trim()

describe('Tooltip and IconButton', () => {
  it('names an icon button by its label alone; the note is its description, outside the button', async () => {
    render(IconButton, {
      props: { icon: PencilIcon, label: 'Draw circle', note: 'Circle (64 vertices): sent as a polygon' },
    })
    const button = await screen.findByRole('button', {
      name: 'Draw circle',
      description: 'Circle (64 vertices): sent as a polygon',
    })
    // Nothing of the tooltip is inside the button: its visible text never differs from its name.
    expect(ownText(button)).toBe('')
    expect(button.querySelector('[role="tooltip"]')).toBeNull()
    expect(document.querySelector('[role="tooltip"]')?.textContent?.trim()).toBe(
      'Draw circle — Circle (64 vertices): sent as a polygon',
    )
  })

  it('shows on hover after a pause, hides when the pointer leaves, and on Escape', async () => {
    render(IconButton, { props: { icon: PencilIcon, label: 'Rename india_cities', tip: 'above' } })
    const button = screen.getByRole('button', { name: 'Rename india_cities' })
    // A tooltip that only repeats the name describes nothing.
    expect(button.getAttribute('aria-describedby')).toBeNull()
    expect(screen.queryByRole('tooltip')).toBeNull()
    await user.hover(button)
    const tip = await screen.findByRole('tooltip')
    expect(tip.textContent?.trim()).toBe('Rename india_cities')
    expect(tip.dataset['placement']).toBeTruthy()
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull())
    await user.unhover(button)
    await user.hover(button)
    await screen.findByRole('tooltip')
    await user.unhover(button)
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull())
  })

  it('shows on keyboard focus and hides on blur; one tooltip at a time', async () => {
    render(Harness, { props: { kind: 'pair' } })
    await user.tab()
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'First' }))
    await waitFor(() => expect(screen.getByRole('tooltip').textContent?.trim()).toBe('First'))
    await user.tab()
    await waitFor(() =>
      expect(screen.getByRole('tooltip').textContent?.trim()).toBe('Second — the second one'),
    )
    expect(screen.getAllByRole('tooltip')).toHaveLength(1)
    await user.tab()
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull())
  })

  it('describes any element it is placed in, and opens inside the dialog that element is in', async () => {
    render(Harness, { props: { kind: 'dialog' } })
    const button = await screen.findByRole('button', { name: 'Move', description: 'Drag, or use ↑ and ↓' })
    expect(ownText(button)).toBe('Move')
    await user.hover(button)
    const tip = await screen.findByRole('tooltip')
    // In the dialog (the top layer), not behind it; still outside the button.
    expect(tip.closest('dialog')).not.toBeNull()
    expect(button.contains(tip)).toBe(false)
  })
})
