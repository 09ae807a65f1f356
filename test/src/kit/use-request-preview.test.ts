import { defineComponent, h, nextTick, reactive } from 'vue'
import { mount } from '@vue/test-utils'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { RequestPreview, Result } from '@contract/index'
import { PREVIEW_DEBOUNCE_MS, useRequestPreview } from '../../../src/kit/use-request-preview'

const previewOf = (url: string): RequestPreview =>
  ({ method: 'GET', url, headers: {} }) as unknown as RequestPreview

describe('useRequestPreview, the composers’ request preview', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  function setup(ask: () => Promise<Result<RequestPreview>>) {
    const form = reactive({ q: 'a' })
    let state!: ReturnType<typeof useRequestPreview>
    const wrapper = mount(
      defineComponent({
        setup() {
          state = useRequestPreview(() => form.q, ask)
          return () => h('p')
        },
      }),
    )
    return { form, state: () => state, wrapper }
  }

  it('asks once the form has been still, and shows only the answer to the latest ask', async () => {
    const answers: Array<(r: Result<RequestPreview>) => void> = []
    const ask = vi.fn(() => new Promise<Result<RequestPreview>>((resolve) => answers.push(resolve)))
    const { form, state } = setup(ask)
    form.q = 'ab'
    await nextTick()
    form.q = 'abc'
    await nextTick()
    expect(ask).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(PREVIEW_DEBOUNCE_MS)
    expect(ask).toHaveBeenCalledTimes(1)
    form.q = 'abcd'
    await nextTick()
    await vi.advanceTimersByTimeAsync(PREVIEW_DEBOUNCE_MS)
    expect(ask).toHaveBeenCalledTimes(2)
    // The later ask answers first; the earlier answer, arriving last, is dropped.
    answers[1]!({ ok: true, value: previewOf('/new') })
    await vi.runAllTimersAsync()
    answers[0]!({ ok: true, value: previewOf('/old') })
    await vi.runAllTimersAsync()
    expect(state().preview.value).toMatchObject({ url: '/new' })
    expect(state().previewError.value).toBeNull()
  })

  it('shows a refusal as an error and asks nothing after the composer is gone', async () => {
    const ask = vi.fn(async (): Promise<Result<RequestPreview>> => ({
      ok: false,
      error: { failureClass: 'validation', message: 'distance: is required', retry: 'never' } as never,
    }))
    const { form, state, wrapper } = setup(ask)
    await vi.advanceTimersByTimeAsync(PREVIEW_DEBOUNCE_MS)
    expect(state().preview.value).toBeNull()
    expect(state().previewError.value).toMatchObject({ message: 'distance: is required' })
    form.q = 'b'
    await nextTick()
    wrapper.unmount()
    await vi.advanceTimersByTimeAsync(PREVIEW_DEBOUNCE_MS * 2)
    expect(ask).toHaveBeenCalledTimes(1)
  })
})
