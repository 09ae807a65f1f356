import { cleanup, render, screen } from '@testing-library/vue'
import { afterEach, describe, expect, it } from 'vitest'
import { defineComponent, h, ref } from 'vue'
import FormField from '../../../src/kit/FormField.vue'

afterEach(cleanup)

/** A FormField around an input, with the error and hint a test sets. */
type FieldProps = InstanceType<typeof FormField>['$props']

function renderField(props: FieldProps, type = 'text') {
  const state = ref<FieldProps>(props)
  const Harness = defineComponent({
    setup: () => () =>
      h(FormField, state.value, {
        default: ({ attrs }: { attrs: Record<string, unknown> }) => h('input', { ...attrs, type }),
      }),
  })
  render(Harness)
  return state
}

const describedText = (control: HTMLElement) =>
  document.getElementById(control.getAttribute('aria-describedby') ?? '')?.textContent

describe('FormField', () => {
  it('labels its control, and ties the hint to it while the value is fine', () => {
    renderField({ label: 'New dataset name', hint: 'The name must start with a letter.' })
    const input = screen.getByRole('textbox', { name: 'New dataset name' })
    expect(input.getAttribute('aria-invalid')).toBeNull()
    expect(describedText(input)).toBe('The name must start with a letter.')
  })

  it('marks the control invalid and ties the error to it in place of the hint', async () => {
    const state = renderField({ label: 'Distance', id: 'join-distance', hint: 'In metres.' })
    state.value = { ...state.value, error: 'Distance is required when operator is DWithin' }
    const input = await screen.findByRole('textbox', { name: 'Distance', description: /is required/ })
    expect(input.id).toBe('join-distance')
    expect(input.getAttribute('aria-invalid')).toBe('true')
    expect(input.getAttribute('aria-describedby')).toBe('join-distance-error')
    expect(screen.queryByText('In metres.')).toBeNull()
    // An error is not announced unless asked: it appears as the person types.
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('announces an error caused elsewhere, and puts a checkbox before its label', () => {
    renderField(
      { label: 'Use drawn shapes', layout: 'check', announce: true, error: 'no drawn shapes' },
      'checkbox',
    )
    const box = screen.getByRole('checkbox', { name: 'Use drawn shapes' })
    expect(box.nextElementSibling?.textContent).toBe('Use drawn shapes')
    expect(screen.getByRole('alert').textContent).toBe('no drawn shapes')
    expect(describedText(box)).toBe('no drawn shapes')
  })
})
