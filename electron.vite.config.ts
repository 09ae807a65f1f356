import vue from '@vitejs/plugin-vue'
import { defineConfig } from 'electron-vite'
import { resolve } from 'node:path'

const contract = resolve(__dirname, 'electron/contract')

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'electron/main/index.ts'),
          // The local service's pool worker, loaded beside the main bundle.
          'pool-worker': resolve(__dirname, 'electron/local-service/pool/worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve(__dirname, 'electron/preload/index.ts') },
        // Sandboxed preloads must be CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src',
    plugins: [vue()],
    resolve: { alias: { '@contract': contract } },
    build: {
      outDir: 'out/renderer',
      // electron-vite leaves the renderer unminified by default; it is served to a browser too.
      minify: 'esbuild',
      rollupOptions: { input: { index: resolve(__dirname, 'src/index.html') } },
    },
  },
})
