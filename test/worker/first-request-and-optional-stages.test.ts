// A guard serving from its config: a miscompiled core fails closed on the first request
// (the known answer runs before the guard is built), and the optional stages a config
// names (token sources, a service origin) are set up.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createGuard, keySets, serviceOrigin, tokenSources } from '../../src/worker/api.js';
import { Core } from '../../src/wasm/core.js';
import { AUD, HS_ISS, ISS, TestCtx, bearer, demoKeys, jwksOf, token, type Keys } from './harness.js';

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});
afterEach(() => vi.restoreAllMocks());

const b64u = (b: Uint8Array): string =>
  btoa(String.fromCharCode(...b))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const HS = {
  issuers: [{ issuer: HS_ISS, audience: AUD, algorithms: ['HS256'], secretBinding: 'HS_KEY' }],
  origin: 'builtin:echo',
  cache: { jwks: false },
};
const req = (t?: string): Request => new Request('https://api.example.com/orders', t === undefined ? {} : bearer(t));

/** The config_error lines the guard writes (console.error without a log of the caller's). */
function configErrors(): { setting: string }[] {
  const lines: string[] = [];
  vi.spyOn(console, 'error').mockImplementation((l: string) => void lines.push(l));
  return new Proxy([], {
    get: (_, p) => (lines.map((l) => JSON.parse(l) as { setting: string }) as never)[p as never],
  });
}

describe('createGuard from its config', () => {
  it(
    'miscompiled_core_fails_closed_on_first_hs_request: a core that accepts any HMAC fails the known answer ' +
      'the guard of the request runs before it is built (its env was not the warmed one); that request and every ' +
      'later one is refused',
    async () => {
      const errors = configErrors();
      const raw = {
        issuers: [HS.issuers[0], { issuer: ISS, audience: AUD, algorithms: ['EdDSA'], jwks: jwksOf(k.ed) }],
        origin: 'builtin:echo',
        cache: { jwks: false },
      };
      const worker = createGuard(raw as never, { stages: [keySets] });
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
    },
  );

  it(
    'token_sources_and_service_origin: given the two stages, a cookie token is read and the request goes to ' +
      'the service binding',
    async () => {
      const raw = { ...HS, tokenSources: [{ cookie: 'session' }], origin: { service: 'API' } };
      const seen: string[] = [];
      const env = {
        HS_KEY: b64u(k.hs.secret!),
        API: { fetch: async (r: Request) => (seen.push(r.url), new Response('from the service')) },
      };
      const g = createGuard(raw as never, { stages: [tokenSources, serviceOrigin] });
      const t = await token(k.hs);
      const res = await g.fetch(
        new Request('https://api.example.com/orders', { headers: { cookie: `a=1; session=${t}` } }),
        env,
        new TestCtx(),
      );
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('from the service');
      expect(seen).toEqual(['https://service-binding.invalid/orders']);
      // The Authorization header is not a source of this config.
      expect((await g.fetch(req(t), env, new TestCtx())).status).toBe(401);
    },
  );
});
