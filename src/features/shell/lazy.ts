import { defineAsyncComponent, defineComponent, h, type Component, type PropType } from 'vue'

type Loader = () => Promise<Component | { default: Component }>

/**
 * A panel loaded when first shown, in its own chunk: the map paints before the panels' code arrives.
 * While it loads (after a short delay) it says so; when its chunk cannot be loaded it says that too.
 */
export function lazyPanel(loader: Loader): Component {
  return defineAsyncComponent({
    loader,
    delay: 150,
    loadingComponent: { render: () => h('p', { class: 'ga-hint', role: 'status' }, 'Loading…') },
    errorComponent: defineComponent({
      props: { error: { type: Object as PropType<Error | null>, default: null } },
      setup: (props) => () =>
        h(
          'p',
          { class: 'ga-error-text', role: 'alert' },
          `This panel could not be loaded: ${props.error?.message ?? 'unknown error'}. Reload the window to try again.`,
        ),
    }),
  })
}

/** A map layer or control loaded after the map has painted. */
export function lazyMapPart(loader: Loader): Component {
  return defineAsyncComponent({
    loader,
    onError(error, _retry, fail) {
      console.error(`A map part could not be loaded: ${error.message}`)
      fail()
    },
  })
}
