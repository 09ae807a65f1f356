import Aura from '@primeuix/themes/aura'
import { createPinia } from 'pinia'
import PrimeVue from 'primevue/config'
import { createApp } from 'vue'
import 'ol/ol.css'
import App from './App.vue'

// The host gives each page load a nonce; the component library puts it on the style elements it adds,
// so the page's policy needs no 'unsafe-inline' for styles (docs/decisions/005-electron-hardening.md).
const nonce = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce || undefined

createApp(App)
  .use(createPinia())
  .use(PrimeVue, { theme: { preset: Aura, options: { darkModeSelector: false } }, csp: { nonce } })
  .mount('#app')
