import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';
import { workerdAliases } from './vitest.workerd-aliases.ts';

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
  resolve: { alias: workerdAliases },
  test: {
    // Two projects, so that every new file under either folder is picked up:
    // - test/shared: one worker for all its files (isolate: false), as in the corpus
    //   bundles, which run these same files in one module graph in Node, Deno, Bun and
    //   Chromium; they touch no bindings and use no `vi`. Spares ~1.5 s of workerd
    //   start-up per file.
    // - test/worker: a fresh worker per file (the default), because guard tests share
    //   the KV bindings' contents, the demo keys of harness.ts and fake timers within a
    //   file, and some count KV reads, writes and JWKS fetches.
    projects: [
      { extends: true, test: { name: 'shared', include: ['test/shared/**/*.test.ts'], isolate: false } },
      { extends: true, test: { name: 'guard', include: ['test/worker/**/*.test.ts'] } },
    ],
    // A fake IdP on 127.0.0.1 for discovery and the provider recipes (test/fake-idp/).
    globalSetup: ['test/fake-idp/global-setup.ts'],
    // Property-test sizing from the environment (workerd has no process.env): see
    // test/worker/stages/path/path-properties.test.ts.
    provide: {
      propertyRuns: process.env.EDGEJWT_PROPERTY_RUNS ?? '',
      propertySeed: process.env.EDGEJWT_PROPERTY_SEED ?? '',
    },
    testTimeout: 120_000,
  },
});
