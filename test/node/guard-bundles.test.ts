// What a bundler keeps of the guard: an embedder of edgejwt/worker/lean gets only the
// features it imports, and a compiled entry (edgejwt build-guard) neither the config
// parser nor a feature its config does not use (issue 23).
import { build } from 'esbuild';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { guardEntry } from '../../src/cli/guard-entry.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const FEATURE_FILES = ['src/worker/remote-keys.ts', 'src/worker/jwks-store.ts', 'src/worker/verify-cache.ts', 'src/worker/seal.ts', 'src/worker/origin-assertion.ts', 'src/worker/discovery.ts', 'src/worker/dpop-stage.ts', 'src/dpop/proof.ts', 'src/worker/mtls-stage.ts', 'src/worker/revocation-stage.ts', 'src/worker/revocation/view.ts', 'src/worker/dpop-replay/shard-object.ts', 'src/worker/revocation/list-object.ts'];

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
    alias: { '#core-loader': join(root, 'src/wasm/load-workerd.ts'), '#crypto-backend': join(root, 'src/backend/webcrypto.ts'), '#platform': join(root, 'src/platform/web.ts') },
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

const HS_CONFIG = { issuers: [{ issuer: 'https://id.example.com', audience: 'api', algorithms: ['HS256'], secretBinding: 'HS_KEY' }], cache: { jwks: false } };
const REMOTE_CONFIG = { issuers: [{ issuer: 'https://id.example.com', audience: 'api', algorithms: ['RS256'], jwksUrl: 'https://id.example.com/jwks' }], cache: { jwks: false } };
/** What the optional core stages (cors, admin, rules, key sets, a service origin) alone bring into a bundle. */
const OPTIONAL_STAGE_FILES = ['src/worker/cors.ts', 'src/worker/admin.ts', 'src/bearer/scopes.ts', 'src/keys/from-input.ts', 'src/keys/local.ts', 'src/keys/ec-point.ts', 'src/keys/rsa-params.ts', 'src/backend/webcrypto.ts', 'src/worker/service-origin.ts', 'src/worker/payload-header.ts'];
/** What token sources other than Authorization alone bring (src/bearer/token.ts stays, for fromAuthorization). */
const TOKEN_SOURCE_FUNCTIONS = ['function fromCookie', 'function fromCustomHeader', 'function findToken', 'function dropToken'];

describe('guard bundles hold only the features used', () => {
  it('lean_embedder_bundles_only_imported_features: an embedder without remoteKeys bundles no remote key code', async () => {
    const without = await bundledFiles(`import { createLeanGuard, originAssertion } from './src/worker/lean.ts';\nexport default createLeanGuard(undefined, { features: { originAssertion } });`);
    expect(without).toContain('src/worker/origin-assertion.ts');
    for (const f of FEATURE_FILES.filter((f) => f !== 'src/worker/origin-assertion.ts')) expect(without).not.toContain(f);
    const withRemote = await bundledFiles(`import { createLeanGuard, remoteKeys } from './src/worker/lean.ts';\nexport default createLeanGuard(undefined, { features: { remoteKeys } });`);
    expect(withRemote).toContain('src/worker/remote-keys.ts');
    expect(withRemote).not.toContain('src/worker/origin-assertion.ts');
  });

  it('compiled_entry_has_no_parser: an HS256 entry bundles neither config.ts nor any feature', async () => {
    const entry = guardEntry(HS_CONFIG, './src/worker/compiled.ts');
    expect(entry.features).toEqual([]);
    const files = await bundledFiles(entry.code);
    expect(files).toContain('src/worker/compiled.ts');
    for (const f of ['src/worker/config.ts', 'src/worker/issuers-config.ts', 'src/worker/cache-config.ts', ...FEATURE_FILES]) expect(files).not.toContain(f);
  });

  it('compiled_entry_bundles_no_option_checks: the entry builds each issuer\'s policy from its config literal (issuer-settings.ts issuerPolicy, src/policy-from.ts), so no options code and no deploy-time check is bundled; neither does the lean guard', async () => {
    const entry = guardEntry(HS_CONFIG, './src/worker/compiled.ts');
    expect(entry.code).not.toContain('const policies');
    expect(entry.code).toMatch(/export default compiledWorker\(\{ config, source: ".*", version: "\d[^"]*" \}/);
    const files = await bundledFiles(entry.code);
    expect(files).toContain('src/policy-from.ts');
    expect(files).toContain('src/worker/self-test.ts');
    for (const f of ['src/options.ts', 'src/option-names.ts', 'src/hmac/source.ts', 'src/cli/policy-agreement.ts', 'src/worker/config-literal.ts', 'src/keys/jwk-bytes.ts']) expect(files).not.toContain(f);
    // The lean guard parses its config at start and then builds the same way: the parser, not the options code.
    const lean = await bundledFiles(`import { createLeanGuard } from './src/worker/lean.ts';\nexport default createLeanGuard();`);
    expect(lean).toContain('src/policy-from.ts');
    expect(lean).toContain('src/worker/config.ts');
    for (const f of ['src/options.ts', 'src/cli/policy-agreement.ts']) expect(lean).not.toContain(f);
  });

  it('compiled_hs256_entry_holds_no_optional_stage: no CORS, admin, rules, key-set, cookie-source, service-origin or payload-header code in a one-issuer HS256 entry', async () => {
    const files = await bundledFiles(guardEntry(HS_CONFIG, './src/worker/compiled.ts').code);
    expect(files).toContain('src/worker/guard.ts');
    for (const f of OPTIONAL_STAGE_FILES) expect(files).not.toContain(f);
    // An entry that only serves builds a plain Guard: authenticate, verify and l1Size stay out.
    expect(files).not.toContain('src/worker/embeddable-guard.ts');
    const text = (await bundle(guardEntry(HS_CONFIG, './src/worker/compiled.ts').code)).outputFiles![0]!.text;
    for (const f of TOKEN_SOURCE_FUNCTIONS) expect(text).not.toContain(f);
    // Each comes back when its section is set.
    const all = { ...HS_CONFIG, cors: { allowOrigins: ['https://app.example.com'] }, admin: { path: '/_guard', secretBinding: 'ADMIN' }, rules: [{ pathPrefix: '/a/', scopes: ['a'] }], tokenSources: [{ cookie: 'session' }], origin: { service: 'API' }, forwardPayload: 'X-Auth-Payload' };
    const full = await bundledFiles(guardEntry(all, './src/worker/compiled.ts').code);
    for (const f of ['src/worker/cors.ts', 'src/worker/admin.ts', 'src/bearer/scopes.ts', 'src/worker/service-origin.ts', 'src/worker/payload-header.ts']) expect(full).toContain(f);
    const fullText = (await bundle(guardEntry(all, './src/worker/compiled.ts').code)).outputFiles![0]!.text;
    for (const f of TOKEN_SOURCE_FUNCTIONS) expect(fullText).toContain(f);
    const keyed = await bundledFiles(guardEntry(REMOTE_CONFIG, './src/worker/compiled.ts').code);
    for (const f of ['src/keys/from-input.ts', 'src/keys/local.ts']) expect(keyed).toContain(f);
  });

  it('a jwksUrl entry imports remoteKeys and key sets, and nothing else', async () => {
    const entry = guardEntry(REMOTE_CONFIG, './src/worker/compiled.ts');
    expect(entry.features).toEqual(['remoteKeys', 'keySets']);
    const files = await bundledFiles(entry.code);
    expect(files).toContain('src/worker/remote-keys.ts');
    expect(files).not.toContain('src/worker/origin-assertion.ts');
    expect(files).not.toContain('src/worker/config.ts');
  });

  it('lean_embedder_bundles_only_imported_edge_stages: dpop without mtls or revocation; the Durable Object class only when exported', async () => {
    const files = await bundledFiles(`import { createLeanGuard, dpop } from './src/worker/lean.ts';\nexport default createLeanGuard(undefined, { features: { dpop } });`);
    expect(files).toContain('src/worker/dpop-stage.ts');
    for (const f of ['src/worker/mtls-stage.ts', 'src/worker/revocation-stage.ts', 'src/worker/revocation/view.ts', 'src/worker/dpop-replay/shard-object.ts', 'src/worker/revocation/list-object.ts']) expect(files).not.toContain(f);
    const entry = guardEntry({ issuers: [{ ...REMOTE_CONFIG.issuers[0]!, dpop: 'required' }], cache: { jwks: false }, dpop: { replay: { durableObject: 'DPOP_REPLAY' } } }, './src/worker/compiled.ts');
    const compiled = await bundledFiles(entry.code);
    expect(compiled).toContain('src/worker/dpop-replay/shard-object.ts');
    expect(compiled).not.toContain('src/worker/revocation/list-object.ts');
  });

  it('the default createGuard still reaches every feature', async () => {
    const files = await bundledFiles(`import { createGuard } from './src/worker/api.ts';\nexport default createGuard();`);
    for (const f of ['src/worker/remote-keys.ts', 'src/worker/origin-assertion.ts', 'src/worker/seal.ts', 'src/worker/dpop-stage.ts', 'src/worker/mtls-stage.ts', 'src/worker/revocation-stage.ts', 'src/worker/embeddable-guard.ts']) expect(files).toContain(f);
  });

  // A bundled import() makes esbuild wrap the imported module and every module it imports (the
  // library included) in lazy-init closures that the entry runs at top level: in a fresh isolate
  // that cost more than evaluating every feature (docs/architecture.md, "Only what the
  // configuration uses is run"). Only runtime modules (cloudflare:workers) may be imported dynamically.
  it('default_entry_has_no_bundled_dynamic_import: the Worker entry and edgejwt/worker have no lazy-init wrappers', async () => {
    for (const entry of ['src/worker/index.ts', 'src/worker/api.ts']) {
      const r = await bundle(`export * from './${entry}';\nexport { default } from './${entry}';`);
      const dynamic = Object.entries(r.metafile.inputs).flatMap(([file, i]) => i.imports.filter((x) => x.kind === 'dynamic-import' && x.external !== true).map((x) => `${file} -> ${x.path}`));
      expect(dynamic, entry).toEqual([]);
      // esbuild's wrapper for a module that must be initialised on demand.
      expect(r.outputFiles[0]!.text, entry).not.toMatch(/\b__esm\(/);
    }
  });
});
