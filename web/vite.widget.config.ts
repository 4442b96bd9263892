import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vite';

/**
 * The website widget: a second build of `web/` into `dist/widget/`, served by the api as `/widget.js`
 * (the loader) and `/widget/chat.js` (the chat UI). Each is one classic script (IIFE): the loader
 * loads the chat with a `<script>` tag, which needs no CORS. `--mode loader` or `--mode chat` picks one.
 */
export default defineConfig(({ mode }) => {
  const entry = mode === 'chat' ? 'src/widget/chat.ts' : 'src/widget/loader.ts';
  return {
    resolve: {
      alias: [
        {
          find: /^@sparks\/contracts\/(\w+)$/,
          replacement: fileURLToPath(new URL('../libs/contracts/src/$1.ts', import.meta.url)),
        },
      ],
    },
    publicDir: false,
    build: {
      outDir: 'dist/widget',
      emptyOutDir: false,
      target: 'es2019',
      lib: {
        entry: fileURLToPath(new URL(entry, import.meta.url)),
        formats: ['iife'],
        name: mode === 'chat' ? 'SparksChat' : 'SparksLoader',
        fileName: () => (mode === 'chat' ? 'chat.js' : 'widget.js'),
      },
    },
  };
});
