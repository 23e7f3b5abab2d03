// A key that leaves the issuer's set stops verifying, cached verdicts included
// (issue 22): L1 entries are tied to the key that proved them, L2 entries are
// stored under that key's tag, and `jwks.maxAgeMs` bounds how long a set (and so
// anything it proved) is used when the issuer sends no Cache-Control.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseConfig, type ConfigError } from '../../src/worker/config.js';
import {
  CACHE_KEY,
  baseConfig,
  bearer,
  demoKeys,
  freshJwksUrl,
  jwksOf,
  makeGuard,
  mockNet,
  token,
  type Keys,
} from './harness.js';

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});
afterEach(() => vi.useRealTimers());

function configWith(extra: Record<string, unknown>): Record<string, unknown> {
  const c = baseConfig(k, extra);
  (c.issuers as Record<string, unknown>[])[0]!.jwksUrl = freshJwksUrl();
  return c;
}

const level = (res: Response): string | undefined => /desc="(\w+)"/.exec(res.headers.get('server-timing') ?? '')?.[1];

describe('a key removed from the set', () => {
  it('guard_l1_drops_verdict_of_removed_key', async () => {
    const g = await makeGuard(k, { config: configWith({ jwks: { cooldownMs: 0 } }) });
    const t = await token(k.ed);
    expect((await g.send('/x', bearer(t))).status).toBe(200);
    expect(level(await g.send('/x', bearer(t)))).toBe('l1');
    // The issuer drops ed-1; a token naming a new kid makes the guard refetch now.
    g.net.jwks = () => Response.json(jwksOf(k.rs), { headers: { 'cache-control': 'max-age=600' } });
    expect((await g.send('/x', bearer(await token(k.ed, {}, { kid: 'ed-2' })))).status).toBe(401);
    // The L1 entry ed-1 proved is gone with it, well before its 300 s life.
    expect((await g.send('/x', bearer(t))).status).toBe(401);
  });

  it('guard_key_removal_within_jwks_max_age', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const net = mockNet(jwksOf(k.ed, k.rs));
    // oidc-provider's way: no Cache-Control on the key set.
    net.jwks = () => Response.json(jwksOf(k.ed, k.rs));
    const g = await makeGuard(k, { config: configWith({ jwks: { maxAgeMs: 60_000 } }), net });
    const t = await token(k.ed);
    expect((await g.send('/x', bearer(t))).status).toBe(200);
    expect(level(await g.send('/x', bearer(t)))).toBe('l1');
    net.jwks = () => Response.json(jwksOf(k.rs));
    vi.setSystemTime(Date.now() + 59_000);
    expect(level(await g.send('/x', bearer(t)))).toBe('l1'); // within the bound: the set is still fresh
    vi.setSystemTime(Date.now() + 2_000);
    // Past maxAgeMs: the set is refetched and the token (L1 entry included) no longer verifies.
    expect((await g.send('/x', bearer(t))).status).toBe(401);
    expect(net.jwksCalls()).toBe(2);
  });

  it('guard_l2_drops_verdict_of_removed_key', async () => {
    // No copy of the key set beyond the isolate (KV or Cache API), so the second isolate knows only what the issuer
    // serves now.
    const config = configWith({ cache: { verify: 'all', verifyAdmission: 'always', jwks: false, jwksColo: false } });
    const a = await makeGuard(k, { config, env: { CACHE_KEY } });
    const t = await token(k.ed);
    expect((await a.send('/x', bearer(t))).status).toBe(200);
    expect(a.guard.counters.get('l2_write')).toBe(1);
    // A second isolate whose issuer has since dropped ed-1: the L2 entry is never read.
    const net = mockNet(jwksOf(k.rs));
    const b = await makeGuard(k, { config, env: { CACHE_KEY }, net });
    const res = await b.send('/x', bearer(t));
    expect(res.status).toBe(401);
    expect(b.guard.counters.get('l2_hit')).toBe(0);
    // And a third whose issuer still has it is served from KV.
    const c = await makeGuard(k, { config, env: { CACHE_KEY } });
    expect(level(await c.send('/x', bearer(t)))).toBe('l2');
  });

  it('jwks_max_age_config', () => {
    const setting = (jwks: unknown): string | number => {
      try {
        return parseConfig(configWith({ jwks })).jwksMaxAgeMs;
      } catch (e) {
        return (e as ConfigError).setting;
      }
    };
    expect(setting({})).toBe(600_000);
    expect(setting({ maxAgeMs: 60_000 })).toBe(60_000);
    for (const bad of [4_999, 86_400_001, '60000', Number.NaN])
      expect(setting({ maxAgeMs: bad })).toBe('jwks.maxAgeMs');
  });
});
