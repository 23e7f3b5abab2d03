// What a bundler keeps of the guard: the default Worker reaches every stage (its config is
// read at run time), a guard given only some stages bundles only those, none holds JWE code,
// and there are no lazy-init wrappers.
import { build } from 'esbuild';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const FEATURE_FILES = [
  'src/worker/remote-keys.ts',
  'src/worker/jwks-store.ts',
  'src/worker/verify-cache.ts',
  'src/worker/seal.ts',
  'src/worker/stages/origin-assertion/origin-assertion.ts',
  'src/worker/discovery.ts',
  'src/worker/stages/dpop/dpop-stage.ts',
  'src/dpop/proof.ts',
  'src/worker/stages/mtls/mtls-stage.ts',
  'src/worker/stages/revocation/revocation-stage.ts',
  'src/worker/revocation/view.ts',
  'src/worker/dpop-replay/shard-object.ts',
  'src/worker/revocation/list-object.ts',
];

/** An esbuild bundle of `contents` (a module in the repository root), as Wrangler bundles a Worker. */
function bundle(contents: string, minify = false) {
  return build({
    stdin: { contents, resolveDir: root, sourcefile: 'entry.ts', loader: 'ts' },
    bundle: true,
    write: false,
    format: 'esm',
    metafile: true,
    minify,
    conditions: ['workerd', 'worker', 'browser'],
    platform: 'neutral',
    alias: {
      '#core-loader': join(root, 'src/wasm/load-workerd.ts'),
      '#crypto-backend': join(root, 'src/backend/webcrypto.ts'),
      '#platform': join(root, 'src/platform/web.ts'),
    },
    external: ['*.wasm', 'node:*', 'cloudflare:*'],
    logLevel: 'silent',
  });
}

/** The source files with bytes in a minified bundle of `contents`. */
async function bundledFiles(contents: string): Promise<string[]> {
  const r = await bundle(contents, true);
  const out = Object.values(r.metafile.outputs)[0]!;
  return Object.keys(out.inputs).filter((f) => out.inputs[f]!.bytesInOutput > 0);
}

describe('guard bundles', () => {
  it('the default Worker reaches every stage, and no JWE code', async () => {
    const files = await bundledFiles(`export { default } from './src/worker/api.ts';`);
    // The Durable Object classes come with the entry's exports, not with the guard.
    for (const f of FEATURE_FILES.filter((f) => !f.endsWith('-object.ts'))) expect(files).toContain(f);
    // The guard never decrypts JWE: its verifier is the two-step one (build.ts), not createVerifier's.
    expect(files.filter((f) => f.startsWith('src/jwe/'))).toEqual([]);
  });

  it(
    'guard_bundles_only_given_stages: createGuard given no stages bundles no stage code and no key-set code; ' +
      'given dpop, no mtls or revocation',
    async () => {
      const none = await bundledFiles(
        `import { createGuard } from './src/worker/api.ts';\nexport default createGuard(undefined, { stages: [] });`,
      );
      for (const f of [...FEATURE_FILES, 'src/keys/from-input.ts', 'src/keys/local.ts', 'src/worker/stages/index.ts'])
        expect(none, f).not.toContain(f);
      const dpop = await bundledFiles(
        `import { createGuard, dpop } from './src/worker/api.ts';\nexport default createGuard(undefined, { ` +
          `stages: [dpop] });`,
      );
      expect(dpop).toContain('src/worker/stages/dpop/dpop-stage.ts');
      for (const f of [
        'src/worker/stages/mtls/mtls-stage.ts',
        'src/worker/stages/revocation/revocation-stage.ts',
        'src/worker/dpop-replay/shard-object.ts',
      ])
        expect(dpop, f).not.toContain(f);
    },
  );

  it(
    'guard_bundles_only_given_sections: a guard given no stages bundles no optional section parser; given cors, ' +
      'the cors one',
    async () => {
      const SECTIONS = [
        'src/worker/stages/cors/cors.ts',
        'src/worker/stages/admin/admin.ts',
        'src/worker/stages/origin-assertion/origin-assertion-config.ts',
        'src/worker/stages/revocation/revocation-config.ts',
        'src/worker/stages/path/reserved-paths.ts',
      ];
      const none = await bundledFiles(
        `import { createGuard } from './src/worker/api.ts';\nexport default createGuard(undefined, { stages: [] });`,
      );
      for (const f of SECTIONS) expect(none, f).not.toContain(f);
      const cors = await bundledFiles(
        `import { createGuard, cors } from './src/worker/api.ts';\nexport default createGuard(undefined, { ` +
          `stages: [cors] });`,
      );
      expect(cors).toContain('src/worker/stages/cors/cors.ts');
    },
  );

  // A bundled import() makes esbuild wrap the imported module and every module it imports (the
  // library included) in lazy-init closures that the entry runs at top level: in a fresh isolate
  // that cost more than evaluating every feature (docs/decisions/0006-guard-stages-imported-statically.md).
  // Only runtime modules (cloudflare:workers) may be imported dynamically.
  it(
    'default_entry_has_no_bundled_dynamic_import: the Worker ' + 'entry and edgejwt/worker have no lazy-init wrappers',
    async () => {
      for (const entry of ['src/worker/index.ts', 'src/worker/api.ts']) {
        const r = await bundle(`export * from './${entry}';\nexport { default } from './${entry}';`);
        const dynamic = Object.entries(r.metafile.inputs).flatMap(([file, i]) =>
          i.imports
            .filter((x) => x.kind === 'dynamic-import' && x.external !== true)
            .map((x) => `${file} -> ${x.path}`),
        );
        expect(dynamic, entry).toEqual([]);
        // esbuild's wrapper for a module that must be initialised on demand.
        expect(r.outputFiles[0]!.text, entry).not.toMatch(/\b__esm\(/);
      }
    },
  );
});
