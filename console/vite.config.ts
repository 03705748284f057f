import { defineConfig } from 'vite';

// Served by the API at /console: relative to that base, one hashed script and stylesheet, no inline code
// (the page's CSP allows scripts and styles from our origin only).
export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  build: { outDir: 'dist', emptyOutDir: true, assetsInlineLimit: 0, modulePreload: { polyfill: false }, reportCompressedSize: false },
  oxc: { jsx: { runtime: 'automatic' } },
  logLevel: 'error', // react-query's "use client" directives are meaningless here
});
