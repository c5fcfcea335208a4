import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'node_modules/**', 'migrations/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // pino applies no formatter to a child logger's bindings, so they would skip the censoring of
    // secret fields (src/server/logger.ts, decision 156) unless they go through it first.
    files: ['src/server/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='child']:not([arguments.0.callee.name='redactLogObject']):not([arguments.0.expression.callee.name='redactLogObject'])",
          message: "A child logger's bindings skip the log formatter: pass them through redactLogObject (logger.ts) first.",
        },
      ],
    },
  },
  {
    // The core is pure: it may not reach into the server, the web app, or Node's I/O.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/server/**', '**/web/**', 'node:*', 'fs', 'path', 'crypto'] }],
    },
  },
);
