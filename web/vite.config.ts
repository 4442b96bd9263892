import { fileURLToPath } from 'node:url';

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The SPA is served from `dist/` by the API server in production; in development `vite` proxies `/api`
 * to the API on port 3000. Every page is loaded with React.lazy (see src/router.tsx), so each route gets
 * its own chunk; the long-lived libraries are grouped into vendor chunks so they stay cached between releases.
 */
export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: [
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
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|cookie)[\\/]/,
            },
            {
              name: 'i18n',
              test: /node_modules[\\/](i18next|react-i18next|i18next-http-backend|i18next-browser-languagedetector|void-elements|html-parse-stringify)[\\/]/,
            },
          ],
        },
      },
    },
  },
});
