import js from '@eslint/js'
import prettier from 'eslint-config-prettier'
import vue from 'eslint-plugin-vue'
import tseslint from 'typescript-eslint'

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

/** Layer rules of docs/architecture: what each folder may import. */
const layers = [
  {
    files: ['electron/contract/**/*.ts'],
    message: 'electron/contract imports only the schema library (zod) and itself.',
    patterns: [
      { regex: '^(?!zod$|\\.{1,2}/)', message: 'electron/contract imports only zod and itself.' },
      { regex: '(^|/)(core|main|preload|web|cli|local-service|src|node_modules)(/|$)', message: 'electron/contract imports only zod and itself.' },
    ],
  },
  {
    files: ['electron/core/**/*.ts', 'electron/local-service/**/*.ts', 'electron/web/**/*.ts', 'electron/cli/**/*.ts'],
    patterns: [
      { group: ['electron', 'electron/*', 'vue', 'vue/*', 'ol', 'ol/*', 'pinia', 'primevue', 'primevue/*'], message: 'core, local service, web host and CLI never import electron, vue, ol or pinia.' },
      { group: ['**/main/*', '**/preload/*'], message: 'Only the Electron host may use electron/main and electron/preload.' },
    ],
  },
  {
    files: ['electron/core/**/*.ts'],
    patterns: [
      { group: ['**/web/*', '**/cli/*', '**/main/*'], message: 'electron/core does not depend on a host.' },
    ],
  },
  {
    files: ['src/**/*.ts', 'src/**/*.vue'],
    patterns: [
      { group: nodeBuiltins, message: 'The renderer never imports Node built-ins.' },
      { group: ['electron', 'electron/*'], message: 'The renderer never imports electron.' },
      {
        group: ['**/electron/*', '!**/electron/contract', '!**/electron/contract/*'],
        message: 'The renderer imports only electron/contract from electron/.',
      },
    ],
  },
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
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'vue/multi-word-component-names': 'off',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  ...layers.map((layer) => ({
    files: layer.files,
    rules: { 'no-restricted-imports': ['error', { patterns: layer.patterns }] },
  })),
  {
    files: ['electron/main/**/*.ts', 'electron/preload/**/*.ts', 'electron/web/**/*.ts', 'electron/cli/**/*.ts', 'scripts/**/*', 'bench/**/*', 'test/**/*'],
    rules: { 'no-console': 'off' },
  },
  prettier,
)
