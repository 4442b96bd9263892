/**
 * Stands in for `use-sync-external-store/shim` in the production build (web/vite.config.ts): swr and react-i18next
 * import that CommonJS polyfill for React 16/17, which on React 18 and later only hands back React's own hook.
 */
export { useSyncExternalStore } from 'react';
