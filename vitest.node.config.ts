import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

// The shared corpus and the Node-only tests (differential against node:crypto,
// memory growth), with the byte loader the default export condition uses.
export default defineConfig({
  resolve: {
    alias: {
      // The examples of README.md and docs/ (test/node/doc-examples/) import the package by name.
      // 'edgejwt/hono' before 'edgejwt': an alias also matches the subpaths of its name.
      'edgejwt/hono': fileURLToPath(new URL('./src/hono/index.ts', import.meta.url)),
      edgejwt: fileURLToPath(new URL('./src/index.ts', import.meta.url)),
      '#core-loader': fileURLToPath(new URL('./src/wasm/load-bytes.ts', import.meta.url)),
      '#crypto-backend': fileURLToPath(new URL('./src/backend/node.ts', import.meta.url)),
      '#platform': fileURLToPath(new URL('./src/platform/node.ts', import.meta.url)),
    },
  },
  test: {
    include: ['test/shared/**/*.test.ts', 'test/node/**/*.test.ts'],
    testTimeout: 120_000,
  },
});
