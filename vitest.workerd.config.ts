import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

// The shared corpus inside workerd, loading the core the way a deployed Worker
// does: the .wasm file imported as a compiled module (the `workerd` condition).
export default defineConfig({
  plugins: [
    cloudflareTest({
      // The Wrangler config brings Wrangler's module rules: `.wasm` imports become
      // compiled WebAssembly.Module objects, exactly as in a deployed Worker.
      wrangler: { configPath: './wrangler.toml' },
      miniflare: {
        // The test pool itself needs nodejs_compat; the guard and library do not.
        compatibilityFlags: ['nodejs_compat'],
      },
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
    include: ['test/shared/**/*.test.ts', 'test/worker/**/*.test.ts'],
    // A fake IdP on 127.0.0.1 for discovery and the provider recipes (test/fake-idp/).
    globalSetup: ['test/fake-idp/global-setup.ts'],
    // Property-test sizing from the environment (workerd has no process.env): see test/worker/path-properties.test.ts.
    provide: { propertyRuns: process.env.EDGEJWT_PROPERTY_RUNS ?? '', propertySeed: process.env.EDGEJWT_PROPERTY_SEED ?? '' },
    testTimeout: 120_000,
  },
});
