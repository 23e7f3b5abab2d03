import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

// The guard's Durable Objects (revocation list) inside workerd, bound from their own
// small Worker (test/worker-do/wrangler.toml), apart from the guard's wrangler.toml.
export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: './test/worker-do/wrangler.toml' },
      miniflare: { compatibilityFlags: ['nodejs_compat'] },
    }),
  ],
  resolve: {
    alias: {
      '#core-loader': fileURLToPath(new URL('./src/wasm/load-workerd.ts', import.meta.url)),
      '#crypto-backend': fileURLToPath(new URL('./src/backend/webcrypto.ts', import.meta.url)),
      '#platform': fileURLToPath(new URL('./src/platform/web.ts', import.meta.url)),
    },
  },
  test: {
    include: ['test/worker-do/**/*.test.ts'],
    testTimeout: 60_000,
  },
});
