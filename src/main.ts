// First: no schema may be made before zod is told not to try `new Function` (the page's policy refuses it).
import './zod-jitless'
import { createPinia } from 'pinia'
import { createApp } from 'vue'
import 'ol/ol.css'
import './kit/tokens.css'
import './kit/base.css'
import App from './App.vue'
import * as areas from './areas'
import { createShellWith, shellKey } from './features/shell/shell'
import { installTheme } from './kit/theme'

installTheme()

createApp(App)
  .use(createPinia())
  .provide(shellKey, createShellWith(Object.values(areas)))
  .mount('#app')
