import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const reactRouter = path.dirname(createRequire(import.meta.url).resolve('react-router/package.json'));

/**
 * The SPA is served from `dist/` by the API server in production; in development `vite` proxies `/api`
 * to the API on port 3000. Every page is loaded with React.lazy (see src/routes.tsx), so each route gets
 * its own chunk; the long-lived libraries are grouped into vendor chunks so they stay cached between releases.
 */
export default defineConfig(({ command }) => ({
  plugins: [react()],
  resolve: {
    alias: [
      // react-router 7 maps every import to its development build (remix-run/react-router#12532, #14102), whose
      // dev warnings then run in production. The build takes the production one instead: the same code with
      // those warnings off (0.6 kB gzip less). The dev server and the tests keep the development build.
      ...(command === 'build'
        ? [
            { find: /^react-router$/, replacement: path.join(reactRouter, 'dist/production/index.mjs') },
            { find: /^react-router\/dom$/, replacement: path.join(reactRouter, 'dist/production/dom-export.mjs') },
            // swr and react-i18next import the CommonJS polyfill of useSyncExternalStore for React 16/17, which on
            // React 19 only hands back React's own hook (0.3 kB gzip and a CommonJS wrapper on every first load).
            {
              find: /^use-sync-external-store\/shim$/,
              replacement: fileURLToPath(new URL('./src/lib/syncExternalStoreShim.ts', import.meta.url)),
            },
          ]
        : []),
      {
        find: /^@sparks\/contracts\/(\w+)$/,
        replacement: fileURLToPath(new URL('../libs/contracts/src/$1.ts', import.meta.url)),
      },
      {
        find: /^@sparks\/contracts$/,
        replacement: fileURLToPath(new URL('../libs/contracts/src/index.ts', import.meta.url)),
      },
    ],
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://localhost:3000', changeOrigin: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: 'http://localhost:3000', changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json maps every source module to its chunk and the chunk's imports: bench/bundle.mjs
    // reads it to add up what a route loads. The api never serves it (express.static ignores dot folders).
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // The app's modules that the entry imports (the API client, swr, the i18n setup…) load on every
              // route anyway: one chunk with the entry instead of a dozen small shared ones (1.2 kB gzip less on each
              // route). The vendor groups below rank higher, so react and i18n keep their own long-cached chunks.
              name: 'boot',
              tags: ['$initial'],
            },
            {
              priority: 1,
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|cookie)[\\/]/,
            },
            {
              priority: 1,
              name: 'i18n',
              test: /node_modules[\\/](i18next|react-i18next|i18next-http-backend|i18next-browser-languagedetector|void-elements|html-parse-stringify)[\\/]/,
            },
          ],
        },
      },
    },
  },
}));
