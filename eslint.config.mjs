import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '.data/**',
      '.test-services/**',
      'libs/db/migrations/**',
      'playwright-report/**',
      'test-results/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
      // The project's own scripts and benchmarks are linted too (below, without type information).
      '!scripts/**/*.mjs',
      '!bench/**/*.mjs',
      '!bench/**/*.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // One program for every Node-side file and one for the web app: a program per tsconfig (eleven) type-checked
        // the libraries again for each project that includes them (175 → 151 CPU s, 3.4 → 2.6 GB, 2026-11-29).
        project: ['./tsconfig.lint.json', './web/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-extraneous-class': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // `@sparks/contracts` brings zod (about 29 kB gzip) into the bundle: the web app takes its types only,
      // and values from the zod-free entries (`@sparks/contracts/rules`, `/widgets`).
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@sparks/contracts',
              allowTypeImports: true,
              message: 'Values come from @sparks/contracts/rules or /widgets (zod-free); import types only here.',
            },
            { name: 'zod', message: 'zod is not part of the web bundle.' },
          ],
        },
      ],
    },
  },
  {
    // Response bodies in tests are untyped JSON by nature; the assertions are the type check.
    files: ['test/**/*.ts', 'e2e/**/*.ts', '**/*.spec.ts', '**/*.spec.tsx', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  prettier,
  {
    // Plain Node.js ES modules (no TypeScript project): the recommended rules, without type information.
    files: ['scripts/**/*.mjs', 'bench/**/*.mjs', 'bench/**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: { ...globals.node } },
  },
  {
    files: ['bench/**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
