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
    // Two projects, so that every new file under either folder is picked up:
    // - test/shared: one worker for all its files (isolate: false), as in the corpus
    //   bundles, which run these same files in one module graph in Node, Deno, Bun and
    //   Chromium (they use no `vi`, no fake timers and no globals of their own).
    // - test/node: a fresh worker per file (the default): fake timers, servers,
    //   spawned CLIs and module state (the core's lazy loading) assume one.
    projects: [
      // fileParallelism: false holds that "one worker" on any machine: with more cores Vitest would split
      // the files over several graphs, in an order that depends on the core count.
      {
        extends: true,
        test: { name: 'shared', include: ['test/shared/**/*.test.ts'], isolate: false, fileParallelism: false },
      },
      { extends: true, test: { name: 'node', include: ['test/node/**/*.test.ts'] } },
    ],
    // Every case of the large Wycheproof files here; the other runtimes run a sample (test/shared/vector-sample.ts).
    env: { EDGEJWT_VECTORS: 'all' },
    testTimeout: 120_000,
  },
});
