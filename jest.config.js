/**
 * Four jest projects: unit (pure logic), web (components in jsdom), integration (real services) and
 * security (attacks on the running app, with the integration project's services and a scoreboard).
 */
const fs = require('node:fs');
const path = require('node:path');

/** Where npm put a package of the web workspace (hoisted to the root, or kept in web/node_modules). */
function webPackage(name, file) {
  const nested = path.join(__dirname, 'web', 'node_modules', name, file);
  return fs.existsSync(nested) ? nested : path.join(__dirname, 'node_modules', name, file);
}

const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true, tsx: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, react: { runtime: 'automatic' } },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];
const moduleNameMapper = {
  '^@sparks/contracts/(\\w+)$': '<rootDir>/libs/contracts/src/$1',
  '^@sparks/domain/billing$': '<rootDir>/libs/domain/src/billing',
  '^@sparks/(contracts|core|db|queues|engine|knowledge|nest|domain)$': '<rootDir>/libs/$1/src',
};

module.exports = {
  projects: [
    {
      displayName: 'unit',
      rootDir: __dirname,
      testEnvironment: 'node',
      testMatch: ['<rootDir>/{api,worker,libs,pulse,deploy}/**/*.spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', '/dist/'],
      transform: { '^.+\\.tsx?$': swc },
      moduleNameMapper,
    },
    {
      displayName: 'web',
      rootDir: __dirname,
      testEnvironment: 'jsdom',
      testMatch: ['<rootDir>/web/src/**/*.spec.{ts,tsx}'],
      transform: { '^.+\\.[tj]sx?$': swc },
      transformIgnorePatterns: [],
      moduleNameMapper: {
        ...moduleNameMapper,
        '\\.(css)$': '<rootDir>/test/style-stub.js',
        // ESM-only (its exports have no "require" condition); swc turns it into CommonJS like the rest.
        '^i18next-fetch-backend$': webPackage('i18next-fetch-backend', 'index.js'),
      },
      setupFilesAfterEnv: ['<rootDir>/test/web-setup.ts', '<rootDir>/test/web-timeouts.js'],
    },
    {
      displayName: 'integration',
      rootDir: __dirname,
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/integration/**/*.it.ts'],
      transform: { '^.+\\.tsx?$': swc },
      moduleNameMapper,
      globalSetup: '<rootDir>/test/integration/global-setup.ts',
      globalTeardown: '<rootDir>/test/integration/global-teardown.ts',
      setupFiles: ['<rootDir>/test/integration/env.ts'],
      testTimeout: 60000,
    },
    {
      displayName: 'security',
      rootDir: __dirname,
      testEnvironment: 'node',
      testMatch: ['<rootDir>/test/security/**/*.sec.ts'],
      transform: { '^.+\\.tsx?$': swc },
      moduleNameMapper,
      globalSetup: '<rootDir>/test/integration/global-setup.ts',
      // Prints the scoreboard, then runs the integration teardown.
      globalTeardown: '<rootDir>/test/security/global-teardown.ts',
      setupFiles: ['<rootDir>/test/integration/env.ts'],
      testTimeout: 60000,
    },
  ],
};
