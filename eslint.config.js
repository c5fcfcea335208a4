import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// pino applies no formatter to a child logger's bindings, so they would skip the censoring of
// secret fields (src/server/logger.ts, decision 156) unless they go through it first.
const childLoggerBindings = {
  selector: "CallExpression[callee.property.name='child']:not([arguments.0.callee.name='redactLogObject']):not([arguments.0.expression.callee.name='redactLogObject'])",
  message: "A child logger's bindings skip the log formatter: pass them through redactLogObject (logger.ts) first.",
};

// A transaction opened past inTransaction (lib/transaction.ts) is not retried on a deadlock, and a
// changed() inside it throws instead of publishing at the commit: the read cache would stay stale.
const rawTransaction = {
  selector: "CallExpression[callee.property.name='transaction']",
  message: 'Open transactions with inTransaction (lib/transaction.ts): it retries deadlocks and publishes changed() at the commit.',
};

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
    files: ['src/server/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', childLoggerBindings] },
  },
  {
    // Tests open raw transactions on purpose (to hold a lock, to look inside one); the server does not.
    files: ['src/server/**/*.ts'],
    ignores: ['src/server/**/*.test.ts'],
    rules: { 'no-restricted-syntax': ['error', childLoggerBindings, rawTransaction] },
  },
  {
    // The core is pure: it may not reach into the server, the web app, or Node's I/O.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/server/**', '**/web/**', 'node:*', 'fs', 'path', 'crypto'] }],
    },
  },
);
