/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

/**
 * The web console: a single-page app built to static files under `dist/apps/console`, which the gateway serves at
 * `{base_url}/console` on the same origin as the console API. `npm run console:dev` serves it with live reload and
 * forwards `/v1` to a running gateway (GATEWAY_URL, default http://localhost:3000).
 */
export default defineConfig({
  root: here,
  base: '/console/',
  plugins: [react()],
  // The signing rules' sentences and scope, the console's permission table and the webhook event catalogue are the
  // contract's own code (modules with no dependency), bundled here.
  resolve: {
    alias: {
      '@game-wallet/contracts/signing-rules': fileURLToPath(new URL('../../libs/contracts/src/signing-rules.ts', import.meta.url)),
      '@game-wallet/contracts/console-access': fileURLToPath(new URL('../../libs/contracts/src/console-access.ts', import.meta.url)),
      '@game-wallet/contracts/webhooks': fileURLToPath(new URL('../../libs/contracts/src/webhooks.ts', import.meta.url)),
    },
  },
  build: {
    outDir: fileURLToPath(new URL('../../dist/apps/console', import.meta.url)),
    emptyOutDir: true,
    // Everything from a file of its own: the page's Content-Security-Policy allows no inline code or styles.
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
  server: {
    proxy: { '/v1': { target: process.env.GATEWAY_URL ?? 'http://localhost:3000', changeOrigin: true } },
  },
  test: {
    root: here,
    environment: 'jsdom',
    include: ['src/**/*.spec.{ts,tsx}'],
    setupFiles: ['./src/test-setup.ts'],
    restoreMocks: true,
    unstubGlobals: true,
    reporters: ['default', fileURLToPath(new URL('../../tools/vitest-summary-reporter.mjs', import.meta.url))],
  },
});
