import js from '@eslint/js'
import prettier from 'eslint-config-prettier'
import vue from 'eslint-plugin-vue'
import tseslint from 'typescript-eslint'
import globals from 'globals'
import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'

const nodeBuiltins = [
  'node:*',
  'fs',
  'fs/*',
  'path',
  'os',
  'http',
  'https',
  'net',
  'crypto',
  'child_process',
  'worker_threads',
  'stream',
  'url',
  'util',
  'zlib',
  'events',
]

const noUi = {
  regex: '^(electron|vue|ol|pinia|primevue|@primeuix/[^/]+)(/.*)?$',
  message: 'core, local service, web host and CLI never import electron, vue, ol, pinia or the UI library.',
}
const noElectronShell = {
  regex: '(^|/)(main|preload)(/|$)',
  message: 'Only the Electron host may use electron/main and electron/preload.',
}

const rendererPatterns = [
  { group: nodeBuiltins, message: 'The renderer never imports Node built-ins.' },
  { regex: '^electron(/.*)?$', message: 'The renderer never imports electron.' },
  {
    regex: '(^|/)electron/(?!contract(/|$))',
    message: 'The renderer imports only electron/contract from electron/.',
  },
]

/**
 * Renderer areas do not import each other (docs/adding-an-area.md): an area is a folder of src/features with an
 * `area.ts`, and from its files an import may reach another folder of src/features only if it is the shell
 * (`shell/`: actions, panels, notices), the settings, or the map's layer API every area's layers use
 * (`map/view/`, `map/layers/`). Everything else shared goes in `src/kit` or `src/geo`. Read from the folders,
 * so a new area is covered without a line here. An import is relative, so the rule is written per depth.
 */
function renderedAreaRules() {
  const features = path.join(import.meta.dirname, 'src', 'features')
  const areas = readdirSync(features).filter((name) => existsSync(path.join(features, name, 'area.ts')))
  const shared = ['shell/', 'settings/', 'map/view/', 'map/layers/']
  return areas.flatMap((area) =>
    [1, 2, 3, 4].map((depth) => ({
      files: [`src/features/${area}/${'*/'.repeat(depth - 1)}*.{ts,vue}`],
      patterns: [
        ...rendererPatterns,
        {
          regex: `^(\\.\\./){${depth}}(?!(${[`${area}/`, ...shared].join('|')}))[a-z0-9-]+/`,
          message: `src/features/${area} does not import another area's folder: use the shell's actions (shell.run), or put what is shared in src/kit or src/geo.`,
        },
      ],
    })),
  )
}

/** Layer rules of docs/architecture: what each folder may import (one rule list per folder). */
const layers = [
  {
    files: ['electron/contract/**/*.ts'],
    patterns: [
      { regex: '^(?!zod$|\\.{1,2}/)', message: 'electron/contract imports only zod and itself.' },
      {
        regex: '(^|/)(core|main|preload|web|cli|local-service|src|node_modules)(/|$)',
        message: 'electron/contract imports only zod and itself.',
      },
    ],
  },
  {
    files: ['electron/core/**/*.ts'],
    patterns: [
      noUi,
      noElectronShell,
      {
        regex: '(^|/)(web|cli|local-service)(/|$)',
        message: 'electron/core does not depend on a host or on the local service.',
      },
    ],
  },
  {
    // The base layer under the core and the local service: pure helpers both use (atomic writes,
    // failures, the port the core reaches the local workspace through). It imports the contract and Node.
    files: ['electron/base/**/*.ts'],
    patterns: [
      noUi,
      {
        regex: '(^|/)(core|main|preload|web|cli|local-service|src)(/|$)',
        message: 'electron/base imports only the contract, shared/ and Node: it is under every other layer.',
      },
    ],
  },
  {
    // The local service and the client core sit side by side on the base layer, never on each other.
    files: ['electron/local-service/**/*.ts'],
    patterns: [
      noUi,
      noElectronShell,
      {
        regex: '(^|/)(core|web|cli)(/|$)',
        message:
          'electron/local-service does not import the client core or a host: shared code goes in electron/base.',
      },
    ],
  },
  {
    files: ['electron/web/**/*.ts', 'electron/cli/**/*.ts'],
    patterns: [noUi, noElectronShell],
  },
  {
    // Shared pure code: used by the renderer, the core, the CLI and the local service alike, so it imports
    // none of them, nothing of Node and no UI library (only pure packages: geographiclib, turf, geojson types).
    files: ['shared/**/*.ts'],
    patterns: [
      noUi,
      { group: nodeBuiltins, message: 'shared/ runs in the renderer too: no Node built-ins.' },
      {
        regex: '(^|/)(electron|src|node_modules)(/|$)',
        message: 'shared/ imports no layer: only itself and pure packages.',
      },
    ],
  },
  {
    files: ['src/**/*.ts', 'src/**/*.vue'],
    patterns: rendererPatterns,
  },
  ...renderedAreaRules(),
]

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'coverage/**', 'resources/**', 'build/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...vue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser } },
  },
  {
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'vue/multi-word-component-names': 'off',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['electron/**/*.ts', 'scripts/**/*', 'bench/**/*', 'test/**/*', '*.config.*'],
    languageOptions: { globals: { ...globals.node } },
  },
  ...layers.map((layer) => ({
    files: layer.files,
    rules: { 'no-restricted-imports': ['error', { patterns: layer.patterns }] },
  })),
  {
    files: [
      'electron/main/**/*.ts',
      'electron/preload/**/*.ts',
      'electron/web/**/*.ts',
      'electron/cli/**/*.ts',
      'scripts/**/*',
      'bench/**/*',
      'test/**/*',
    ],
    rules: { 'no-console': 'off' },
  },
  prettier,
)
