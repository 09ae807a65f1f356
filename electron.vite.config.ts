import vue from '@vitejs/plugin-vue'
import { defineConfig } from 'electron-vite'
import { resolve } from 'node:path'
import { CSP_NONCE_PLACEHOLDER, devServerCspNonce } from './electron/core/csp'

const contract = resolve(__dirname, 'electron/contract')

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'electron/main/index.ts'),
          // The local service, run by the main process as an Electron utility process.
          'local-service': resolve(__dirname, 'electron/local-service/process-entry.ts'),
          // The local service's pool worker, loaded beside the service's bundle.
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
    plugins: [
      vue(),
      // `npm run dev`: the dev server writes this run's nonce, which Electron's policy names (dev-server-policy.ts).
      {
        name: 'geo-dev-csp-nonce',
        config: (_, { command }) =>
          command === 'serve' ? { html: { cspNonce: devServerCspNonce() } } : undefined,
      },
    ],
    // Each host replaces the placeholder with a fresh nonce per response (electron/core/csp.ts).
    html: { cspNonce: CSP_NONCE_PLACEHOLDER },
    resolve: { alias: { '@contract': contract } },
    build: {
      outDir: 'out/renderer',
      // electron-vite leaves the renderer unminified by default; it is served to a browser too.
      minify: 'esbuild',
      rollupOptions: { input: { index: resolve(__dirname, 'src/index.html') } },
    },
  },
})
