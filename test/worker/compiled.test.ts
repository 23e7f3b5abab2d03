// The Worker an `edgejwt build-guard` entry starts (src/worker/compiled.ts): the config
// checked at deploy time, only the features the entry passes, and a deployment whose
// GUARD_CONFIG was changed without a new build refusing every request.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
// The KV tiers' feature and bindings (kv_tiers_missing_fails_closed).
import { kvTiers } from '../../src/worker/compiled.js';
import { CACHE_KEY, FaultyKV, kv } from './harness.js';
import { admin, compiledWorker, cors, keySets, remoteKeys, rules, serviceOrigin, tokenSources, forwardPayload } from '../../src/worker/compiled.js';
import { createLeanGuard } from '../../src/worker/lean.js';
import { Core } from '../../src/wasm/core.js';
import { AUD, HS_ISS, JWKS_URL, ISS, TestCtx, bearer, demoKeys, jwksOf, token, type Keys } from './harness.js';
import { compileEntry } from './compile-entry.js';

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});
afterEach(() => vi.restoreAllMocks());

const b64u = (b: Uint8Array): string => btoa(String.fromCharCode(...b)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const HS = { issuers: [{ issuer: HS_ISS, audience: AUD, algorithms: ['HS256'], secretBinding: 'HS_KEY' }], origin: 'builtin:echo', cache: { jwks: false } };
const compile = (raw: unknown) => (compileEntry(raw));
const req = (t?: string): Request => new Request('https://api.example.com/orders', t === undefined ? {} : bearer(t));

/** The config_error lines the guard writes (console.error without a log of the caller's). */
function configErrors(): { setting: string }[] {
  const lines: string[] = [];
  vi.spyOn(console, 'error').mockImplementation((l: string) => void lines.push(l));
  return new Proxy([], { get: (_, p) => (lines.map((l) => JSON.parse(l) as { setting: string }) as never)[p as never] });
}

describe('compiledWorker (edgejwt build-guard)', () => {
  it('serves from the compiled config, with GUARD_CONFIG absent or the same (as text or object)', async () => {
    const worker = compiledWorker(compile(HS), {});
    const env = { HS_KEY: b64u(k.hs.secret!) };
    const t = await token(k.hs, { sub: 'compiled-user' });
    for (const e of [env, { ...env, GUARD_CONFIG: JSON.stringify(HS) }, { ...env, GUARD_CONFIG: HS }]) {
      const res = await worker.fetch(req(t), e, new TestCtx());
      expect(res.status).toBe(200);
      expect(((await res.json()) as { headers: Record<string, string> }).headers.authorization).toBeDefined();
    }
    expect((await worker.fetch(req(), env, new TestCtx())).status).toBe(401);
  });

  it('compiled_config_mismatch_fails_closed: a GUARD_CONFIG changed since the build refuses every request', async () => {
    const errors = configErrors();
    const worker = compiledWorker(compile(HS), {});
    const t = await token(k.hs);
    // Wider: any audience would be a weaker check than the compiled one; it must not be served either way.
    const changed = { ...HS, issuers: [{ ...HS.issuers[0], audience: ['api', 'other'] }] };
    for (const g of [JSON.stringify(changed), changed, 'not json']) {
      const res = await worker.fetch(req(t), { HS_KEY: b64u(k.hs.secret!), GUARD_CONFIG: g }, new TestCtx());
      expect(res.status).toBe(500);
    }
    expect(errors.length).toBe(3);
    for (const e of errors) expect(e.setting).toBe('GUARD_CONFIG');
  });

  it('miscompiled_core_fails_closed_on_first_hs_request: a core that accepts any HMAC fails the known answer the guard of the request runs before it is built (its env was not the warmed one); that request and every later one is refused', async () => {
    const errors = configErrors();
    const raw = { issuers: [HS.issuers[0], { issuer: ISS, audience: AUD, algorithms: ['EdDSA'], jwks: jwksOf(k.ed) }], origin: 'builtin:echo', cache: { jwks: false } };
    const worker = compiledWorker(compile(raw), { keySets });
    const env = { HS_KEY: b64u(k.hs.secret!) };
    const t = await token(k.hs);
    const forged = t.slice(0, -2) + (t.at(-2) === 'A' ? 'B' : 'A') + t.at(-1)!;
    const ed = await token(k.ed);
    // Miscompiled: every HMAC tag verifies (the EdDSA path is left as it is).
    const verify = Core.prototype.verify;
    vi.spyOn(Core.prototype, 'verify').mockImplementation(function (this: Core, ...args: Parameters<Core['verify']>) {
      return args[0] === 'hmac' || verify.apply(this, args);
    });
    expect((await worker.fetch(req(forged), env, new TestCtx())).status).toBe(500);
    vi.mocked(Core.prototype.verify).mockRestore();
    // Final: a valid HS token, an EdDSA token and a request without one are refused too.
    for (const r of [req(t), req(ed), req()]) expect((await worker.fetch(r, env, new TestCtx())).status).toBe(500);
    expect([...errors].filter((e) => e.setting === 'self-test').length).toBeGreaterThanOrEqual(4);
  });

  it('compiled_missing_feature_fails_closed: a config that needs a feature the entry did not pass refuses every request', async () => {
    const errors = configErrors();
    const raw = { issuers: [{ issuer: ISS, audience: AUD, algorithms: ['EdDSA'], jwksUrl: JWKS_URL }], origin: 'builtin:echo', cache: { jwks: false } };
    const without = compiledWorker(compile(raw), {});
    const t = await token(k.ed);
    expect((await without.fetch(req(t), {}, new TestCtx())).status).toBe(500);
    expect(errors[0]!.setting).toMatch(/^issuers/);
    // Given the features, the same config starts (no token: 401, and no key set is fetched).
    const withRemote = compiledWorker(compile(raw), { keySets, remoteKeys });
    expect((await withRemote.fetch(req(), {}, new TestCtx())).status).toBe(401);
  });

  it('compiled_token_sources_and_service_origin: given the two features, a cookie token is read and the request goes to the service binding', async () => {
    const raw = { ...HS, tokenSources: [{ cookie: 'session' }], origin: { service: 'API' } };
    const seen: string[] = [];
    const env = { HS_KEY: b64u(k.hs.secret!), API: { fetch: async (r: Request) => (seen.push(r.url), new Response('from the service')) } };
    const g = compiledWorker(compile(raw), { tokenSources, serviceOrigin });
    const t = await token(k.hs);
    const res = await g.fetch(new Request('https://api.example.com/orders', { headers: { cookie: `a=1; session=${t}` } }), env, new TestCtx());
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('from the service');
    expect(seen).toEqual(['https://service-binding.invalid/orders']);
    // The Authorization header is not a source of this config.
    expect((await g.fetch(req(t), env, new TestCtx())).status).toBe(401);
  });

  it('kv_tiers_missing_fails_closed: a config with cache.verify and CACHE_KEY set, built without the kvTiers feature (whose stage brings the L2 step), refuses every request naming CACHE_KEY; given it, the verify reads KV', async () => {
    const raw = { ...HS, cache: { jwks: false, verify: ['HS256'] } };
    const t = await token(k.hs);
    const verifyKv = new FaultyKV(kv.VERIFY_CACHE);
    const env = { HS_KEY: b64u(k.hs.secret!), CACHE_KEY, VERIFY_CACHE: verifyKv };
    const errors = configErrors();
    for (const g of [compiledWorker(compile(raw), {}), createLeanGuard(raw as never, { features: {} })]) expect((await g.fetch(req(t), env, new TestCtx())).status).toBe(500);
    expect([...errors].map((e) => e.setting)).toEqual(['CACHE_KEY', 'CACHE_KEY']);
    expect(verifyKv.gets).toBe(0);
    for (const g of [compiledWorker(compile(raw), { kvTiers }), createLeanGuard(raw as never, { features: { kvTiers } })]) {
      const ctx = new TestCtx();
      expect((await g.fetch(req(t), env, ctx)).status).toBe(200);
      await ctx.settle();
    }
    // Each guard's first verify of the token asked L2 (the fixed-key tag of a secret issuer) before the library.
    expect(verifyKv.gets).toBe(2);
  });

  it('core_stage_missing_fails_closed: cors, admin, rules, publicPaths, a key set, a token source other than Authorization, a service origin or forwardPayload the compiled or lean guard was not given refuses every request, naming the setting', async () => {
    const env = { HS_KEY: b64u(k.hs.secret!), ADMIN_SECRET: 'an-admin-secret-of-16+', API: { fetch: async () => new Response('from the service') } };
    const t = await token(k.hs);
    const cases: [raw: Record<string, unknown>, setting: string, given: Parameters<typeof compiledWorker>[1]][] = [
      [{ ...HS, cors: { allowOrigins: ['https://app.example.com'] } }, 'cors', { cors }],
      [{ ...HS, admin: { path: '/_guard', secretBinding: 'ADMIN_SECRET' } }, 'admin', { admin }],
      [{ ...HS, rules: [{ pathPrefix: '/orders', scopes: ['orders'] }] }, 'rules', { rules }],
      [{ ...HS, publicPaths: ['/orders'] }, 'publicPaths', { rules }],
      [{ issuers: [{ issuer: ISS, audience: AUD, algorithms: ['EdDSA'], jwks: jwksOf(k.ed) }], origin: 'builtin:echo', cache: { jwks: false } }, 'issuers[0] (jwks)', { keySets }],
      [{ ...HS, tokenSources: [{ header: 'Authorization' }, { cookie: 'session' }] }, 'tokenSources', { tokenSources }],
      [{ ...HS, tokenSources: [{ header: 'X-Token' }] }, 'tokenSources', { tokenSources }],
      [{ ...HS, origin: { service: 'API' } }, 'origin.service', { serviceOrigin }],
      [{ ...HS, forwardPayload: 'X-Auth-Payload' }, 'forwardPayload', { forwardPayload }],
    ];
    for (const [raw, setting, given] of cases) {
      const errors = configErrors();
      const guards = [compiledWorker(compile(raw), {}), createLeanGuard(raw as never, { features: {} })];
      for (const g of guards) expect((await g.fetch(req(t), env, new TestCtx())).status).toBe(500);
      expect([...errors].map((e) => e.setting)).toEqual([setting, setting]);
      vi.restoreAllMocks();
      // Given the feature, the same config starts and answers (not a 500).
      for (const g of [compiledWorker(compile(raw), given), createLeanGuard(raw as never, { features: given })]) expect((await g.fetch(req(t), env, new TestCtx())).status).not.toBe(500);
    }
  });
});
