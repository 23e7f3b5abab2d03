// createGuard(config?, { stages: defaultStages }) from edgejwt/worker: the same guard inside your own
// Worker, `authenticate` to verify then run your code, the default export.
import { beforeAll, describe, expect, it } from 'vitest';
import workerDefault, { createGuard, defaultStages, type GuardConfigInput } from '../../src/worker/api.js';
import { AUD, ISS, TestCtx, bearer, demoKeys, forged, kv, token, type Keys } from './harness.js';
import { b64u } from '../shared/jwt-mint.js';

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});

function inlineConfig(extra: Partial<GuardConfigInput> = {}): GuardConfigInput {
  return {
    issuers: [
      { issuer: ISS, audience: AUD, algorithms: ['EdDSA'], jwks: { keys: [{ ...k.ed.publicJwk, kid: k.ed.kid }] } },
    ],
    publicPaths: ['/health'],
    rules: [{ pathPrefix: '/admin/', scopes: ['admin'] }],
    origin: 'builtin:echo',
    ...extra,
  };
}

const env = (): Record<string, unknown> => ({ VERIFY_CACHE: kv.VERIFY_CACHE, JWKS_CACHE: kv.JWKS_CACHE });
const req = (path: string, init?: RequestInit): Request => new Request(`https://api.example.com${path}`, init);

describe('createGuard(config, { stages: defaultStages })', () => {
  it('authenticate: ok with payload, header and issuer; then the Worker runs its own code', async () => {
    const guard = createGuard(inlineConfig(), { stages: defaultStages });
    const e = env();
    const t = await token(k.ed, { sub: 'emb' });
    const auth = await guard.authenticate(req('/orders', bearer(t)), e, new TestCtx());
    expect(auth.ok).toBe(true);
    if (!auth.ok) return;
    expect(auth.payload?.sub).toBe('emb');
    expect(auth.header?.alg).toBe('EdDSA');
    expect(auth.header?.kid).toBe('ed-1');
    expect(auth.issuer).toBe(ISS);
    // A second call is an L1 hit: the header is still there.
    const again = await guard.authenticate(req('/orders', bearer(t)), e, new TestCtx());
    expect(again.ok && again.header?.kid).toBe('ed-1');
  });

  it('authenticate: the exact refusal the guard would send (401, 403), and nothing is forwarded', async () => {
    const guard = createGuard(inlineConfig(), { stages: defaultStages });
    const e = env();
    const none = await guard.authenticate(req('/x'), e, new TestCtx());
    expect(none.ok).toBe(false);
    if (none.ok) return;
    expect(none.response.status).toBe(401);
    expect(none.response.headers.get('www-authenticate')).toBe('Bearer realm="edgejwt"');
    const bad = await guard.authenticate(req('/x', bearer(await forged())), e, new TestCtx());
    expect(!bad.ok && bad.response.status).toBe(401);
    const scope = await guard.authenticate(req('/admin/x', bearer(await token(k.ed))), e, new TestCtx());
    expect(!scope.ok && scope.response.status).toBe(403);
  });

  it('authenticate on a public path: ok and anonymous', async () => {
    const guard = createGuard(inlineConfig(), { stages: defaultStages });
    const auth = await guard.authenticate(req('/health'), env(), new TestCtx());
    expect(auth).toEqual({ ok: true, payload: undefined, header: undefined, issuer: undefined });
  });

  it('fetch: the whole guard, forwarding to the configured origin', async () => {
    const guard = createGuard(inlineConfig(), { stages: defaultStages });
    const res = await guard.fetch(req('/me', bearer(await token(k.ed, { sub: 'via-fetch' }))), env(), new TestCtx());
    expect(res.status).toBe(200);
    expect(((await res.json()) as { headers: Record<string, string> }).headers['x-auth-sub']).toBe('via-fetch');
  });

  it('config as a function of env (secrets from bindings), and as a JSON string', async () => {
    const fromEnv = createGuard((e) => inlineConfig({ realm: String(e.REALM) }), { stages: defaultStages });
    const res = await fromEnv.fetch(req('/x'), { ...env(), REALM: 'from-env' }, new TestCtx());
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="from-env"');
    const fromText = createGuard(JSON.stringify(inlineConfig({ realm: 'text' })), { stages: defaultStages });
    expect((await fromText.fetch(req('/x'), env(), new TestCtx())).headers.get('www-authenticate')).toBe(
      'Bearer realm="text"',
    );
  });

  it(
    'without config, GUARD_CONFIG is read; a bad config ' + 'is a 500 from both methods, with the setting logged',
    async () => {
      const logs: string[] = [];
      const guard = createGuard(undefined, { stages: defaultStages, log: (l) => logs.push(l) });
      const good = { ...env(), GUARD_CONFIG: inlineConfig() };
      expect((await guard.fetch(req('/x', bearer(await token(k.ed))), good, new TestCtx())).status).toBe(200);
      const broken = { ...env(), GUARD_CONFIG: { issuers: [] } };
      expect((await guard.fetch(req('/x'), broken, new TestCtx())).status).toBe(500);
      const auth = await guard.authenticate(req('/x'), broken, new TestCtx());
      expect(!auth.ok && auth.response.status).toBe(500);
      expect(logs.filter((l) => l.includes('"config_error"') && l.includes('"setting":"issuers"'))).toHaveLength(2);
    },
  );

  it('the default export is the guard Worker reading GUARD_CONFIG', async () => {
    const e = { ...env(), GUARD_CONFIG: JSON.stringify(inlineConfig()), HS: b64u(new Uint8Array(32)) };
    expect((await workerDefault.fetch(req('/x', bearer(await token(k.ed))), e, new TestCtx())).status).toBe(200);
    expect((await workerDefault.fetch(req('/x'), e, new TestCtx())).status).toBe(401);
  });
});
