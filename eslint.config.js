import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'dist-gallery/**',
      'bridge/dist/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      '.steward-profile/**',
      'test/fixtures/wpt-webmcp/**',
      'test/fixtures/wpt-webmcp-support/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-console': 'off',
    },
  },
  {
    // Type-aware rules: every TypeScript file belongs to tsconfig.json, found by the project service.
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // A `default` is a deliberate catch-all; a switch without one must name every case.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    // The extension reaches the browser through its context's browser.ts (webextension-polyfill), so unit tests can fake it.
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['src/*/browser.ts', 'src/background/core/messenger.ts'],
    rules: { 'no-restricted-globals': ['error', { name: 'chrome', message: "Use `browser` (or `chromeOnly`) from this context's browser.ts." }] },
  },
  {
    files: ['scripts/**/*.mjs', '*.js', 'bridge/bin/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', setTimeout: 'readonly' } },
  },
);
