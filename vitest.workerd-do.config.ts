import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';
import { workerdAliases } from './vitest.workerd-aliases.ts';

// The guard's Durable Objects (revocation list) inside workerd, bound from their own
// small Worker (test/worker-do/wrangler.toml), apart from the guard's wrangler.toml.
export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: './test/worker-do/wrangler.toml' },
      miniflare: { compatibilityFlags: ['nodejs_compat'] },
    }),
  ],
  resolve: { alias: workerdAliases },
  test: {
    include: ['test/worker-do/**/*.test.ts'],
    testTimeout: 60_000,
  },
});
