// JWKS through the guard: cold start from KV, rotation, unknown-kid floods held
// back by the cooldown, issuer outages with and without a set, and bad key sets.
import { beforeAll, describe, expect, it } from 'vitest';
import { b64u, generate } from '../shared/jwt-mint.js';
import {
  CACHE_KEY,
  FaultyKV,
  baseConfig,
  bearer,
  demoKeys,
  freshJwksUrl,
  jwksOf,
  kv,
  makeGuard,
  mockNet,
  token,
  type Keys,
} from './harness.js';
import { parseConfig, type ConfigError } from '../../src/worker/config.js';
import { KvJwksStore } from '../../src/worker/jwks-store.js';

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});

function configWith(url: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const c = baseConfig(k, extra);
  (c.issuers as Record<string, unknown>[])[0]!.jwksUrl = url;
  return c;
}

/** A clock the remote key set reads, moved by hand. */
function clock(): { now: () => number; advance(ms: number): void } {
  let t = Date.now();
  return { now: () => t, advance: (ms) => void (t += ms) };
}

describe('cold start from KV', () => {
  it('a second instance starts from the set the first stored, with no network fetch', async () => {
    const url = freshJwksUrl();
    // KV alone: with the Cache API tier on, the second instance would find the set there first (key-set-colo.test.ts).
    const kvOnly = configWith(url, { cache: { jwksColo: false } });
    const a = await makeGuard(k, { config: kvOnly, env: { CACHE_KEY } });
    expect((await a.send('/x', bearer(await token(k.ed)))).status).toBe(200);
    expect(a.net.jwksCalls()).toBe(1);
    expect(a.guard.counters.get('jwks_fetch')).toBe(1);
    const stored = await kv.JWKS_CACHE.get(KvJwksStore.key(url), 'text');
    expect(stored?.startsWith('s1.')).toBe(true);

    const down = mockNet(jwksOf(k.ed, k.rs));
    down.jwks = () => new Response('down', { status: 503 });
    const b = await makeGuard(k, { config: kvOnly, env: { CACHE_KEY }, net: down });
    expect((await b.send('/x', bearer(await token(k.rs)))).status).toBe(200);
    expect(b.net.jwksCalls()).toBe(0);
    expect(b.guard.counters.get('jwks_store_hit')).toBe(1);
  });

  it('a stored set sealed under another secret is ignored and the issuer is asked', async () => {
    const url = freshJwksUrl();
    const evil = await generate('EdDSA');
    // Sealed, but under a key that is not CACHE_KEY.
    const key = KvJwksStore.key(url);
    const json = JSON.stringify(jwksOf({ ...evil, kid: 'ed-1' }));
    const wrong = await crypto.subtle.importKey(
      'raw',
      new Uint8Array(32).fill(5),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    const tag = new Uint8Array(await crypto.subtle.sign('HMAC', wrong, new TextEncoder().encode(`${key}\n${json}`)));
    await kv.JWKS_CACHE.put(key, `s1.${b64u(tag)}.${json}`);
    const g = await makeGuard(k, { config: configWith(url), env: { CACHE_KEY } });
    // A token from the planted key must fail; the real one passes after a fetch.
    expect((await g.send('/x', bearer(await token({ ...evil, kid: 'ed-1' })))).status).toBe(401);
    expect((await g.send('/x', bearer(await token(k.ed)))).status).toBe(200);
    expect(g.net.jwksCalls()).toBe(1);
    expect(g.guard.counters.get('jwks_store_error')).toBe(1);
  });

  it('a plain JSON set planted in JWKS_CACHE is ignored', async () => {
    const url = freshJwksUrl();
    const evil = { ...(await generate('EdDSA')), kid: 'ed-1' };
    await kv.JWKS_CACHE.put(KvJwksStore.key(url), JSON.stringify(jwksOf(evil)));
    const g = await makeGuard(k, { config: configWith(url), env: { CACHE_KEY } });
    expect((await g.send('/x', bearer(await token(evil)))).status).toBe(401);
    expect(g.net.jwksCalls()).toBe(1);
  });

  it('a hung JWKS_CACHE read falls through to the network within the KV timeout', async () => {
    const fk = new FaultyKV(kv.JWKS_CACHE);
    fk.mode.get = 'hang';
    const g = await makeGuard(k, {
      config: configWith(freshJwksUrl(), { cache: { kvTimeoutMs: 20 } }),
      env: { CACHE_KEY, JWKS_CACHE: fk },
    });
    expect((await g.send('/x', bearer(await token(k.ed)))).status).toBe(200);
    expect(g.net.jwksCalls()).toBe(1);
  });
});

describe('rotation and unknown kids', () => {
  it('a new key is picked up by refetching once the cooldown allows; the removed key stops working', async () => {
    const c = clock();
    const url = freshJwksUrl();
    const net = mockNet(jwksOf(k.ed));
    const g = await makeGuard(k, { config: configWith(url), net, deps: { now: c.now } });
    expect((await g.send('/x', bearer(await token(k.ed)))).status).toBe(200);

    const next = { ...(await generate('EdDSA')), kid: 'ed-2' };
    net.jwks = () => Response.json(jwksOf(next), { headers: { 'cache-control': 'max-age=600' } });
    c.advance(31_000); // past the 30 s default cooldown
    expect((await g.send('/x', bearer(await token(next)))).status).toBe(200);
    expect(net.jwksCalls()).toBe(2);
    // ed-1 is gone from the published set: a fresh ed-1 token (not in L1) fails.
    expect((await g.send('/x', bearer(await token(k.ed, { sub: 'after-rotation' })))).status).toBe(401);
  });

  it('a flood of unknown kids costs at most one fetch per cooldown', async () => {
    const c = clock();
    const net = mockNet(jwksOf(k.ed));
    const g = await makeGuard(k, { config: configWith(freshJwksUrl()), net, deps: { now: c.now } });
    expect((await g.send('/x', bearer(await token(k.ed)))).status).toBe(200);
    const stranger = await generate('EdDSA');
    const statuses = new Map<number, number>();
    for (let i = 0; i < 300; i++) {
      const t = await token({ ...stranger, kid: `unknown-${i}` });
      const s = (await g.send('/x', bearer(t))).status;
      statuses.set(s, (statuses.get(s) ?? 0) + 1);
      if (i === 150) c.advance(31_000);
    }
    expect([...statuses]).toEqual([[401, 300]]);
    // The first fetch, then one refetch after the clock moved past the cooldown.
    expect(net.jwksCalls()).toBe(2);
  });
});

describe('issuer down', () => {
  it('with a set in memory: keeps serving it past freshness', async () => {
    const c = clock();
    const net = mockNet(jwksOf(k.ed));
    const g = await makeGuard(k, { config: configWith(freshJwksUrl()), net, deps: { now: c.now } });
    expect((await g.send('/x', bearer(await token(k.ed)))).status).toBe(200);
    net.jwks = () => new Response('oops', { status: 500 });
    c.advance(11 * 60_000); // past max-age=600
    expect((await g.send('/x', bearer(await token(k.ed, { sub: 'stale-ok' })))).status).toBe(200);
    expect(g.guard.counters.get('jwks_fetch_failed')).toBe(1);
  });

  it('with nothing cached: 503 with Retry-After, for good and bad tokens alike', async () => {
    const net = mockNet(jwksOf(k.ed));
    net.jwks = () => {
      throw new TypeError('connection refused');
    };
    const g = await makeGuard(k, { config: configWith(freshJwksUrl()), net });
    for (const t of [await token(k.ed), await token(k.rs)]) {
      const res = await g.send('/x', bearer(t));
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('30');
      expect(res.headers.get('www-authenticate')).toBeNull();
      expect(await res.json()).toEqual({
        error: 'temporarily_unavailable',
        error_description: 'Signing keys are unavailable',
      });
    }
    // The HS issuer does not depend on the JWKS and keeps working.
    expect((await g.send('/x', bearer(await token(k.hs)))).status).toBe(200);
    expect(g.guard.counters.get('unavailable')).toBe(2);
  });

  it('Retry-After is the configured JWKS cooldown (no refetch is tried before it ends)', async () => {
    const net = mockNet(jwksOf(k.ed));
    net.jwks = () => new Response('down', { status: 503 });
    const g = await makeGuard(k, { config: configWith(freshJwksUrl(), { jwks: { cooldownMs: 7_500 } }), net });
    const res = await g.send('/x', bearer(await token(k.ed)));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('8');
  });

  it('guard_serves_stale_set_within_jwks_stale_ms_then_503', async () => {
    const c = clock();
    const net = mockNet(jwksOf(k.ed));
    // oidc-provider's way: no Cache-Control, so the set is fresh for jwks.maxAgeMs.
    net.jwks = () => Response.json(jwksOf(k.ed));
    const jwks = { maxAgeMs: 60_000, staleMs: 120_000, cooldownMs: 0 };
    const config = configWith(freshJwksUrl(), { cache: { jwks: false, jwksColo: false }, jwks });
    const g = await makeGuard(k, { config, net, deps: { now: c.now } });
    const t = await token(k.ed);
    expect((await g.send('/x', bearer(t))).status).toBe(200);
    net.jwks = () => new Response('down', { status: 500 });
    c.advance(61_000); // stale: the refresh fails, the last good set still verifies
    expect((await g.send('/x', bearer(t))).status).toBe(200);
    c.advance(118_000); // 179 s: 1 s short of freshness plus jwks.staleMs
    expect((await g.send('/x', bearer(await token(k.ed, { sub: 'late' })))).status).toBe(200);
    c.advance(2_000); // past it: fail closed, the cached verdict of t included
    for (const tk of [t, await token(k.ed, { sub: 'after' })])
      expect((await g.send('/x', bearer(tk))).status).toBe(503);
    expect(g.guard.counters.get('jwks_fetch_failed')).toBeGreaterThanOrEqual(3);
  });

  it('jwks_stale_ms_zero_fails_closed_once_the_set_is_stale', async () => {
    const c = clock();
    const net = mockNet(jwksOf(k.ed));
    net.jwks = () => Response.json(jwksOf(k.ed));
    const jwks = { maxAgeMs: 60_000, staleMs: 0, cooldownMs: 0 };
    const config = configWith(freshJwksUrl(), { cache: { jwks: false, jwksColo: false }, jwks });
    const g = await makeGuard(k, { config, net, deps: { now: c.now } });
    const t = await token(k.ed);
    expect((await g.send('/x', bearer(t))).status).toBe(200);
    net.jwks = () => new Response('down', { status: 500 });
    c.advance(59_000); // still fresh: no fetch, no failure
    expect((await g.send('/x', bearer(await token(k.ed, { sub: 'fresh' })))).status).toBe(200);
    c.advance(1_001); // stale, and the issuer fails: no window at all
    expect((await g.send('/x', bearer(t))).status).toBe(503);
  });

  it('fresh_isolate_refuses_stored_set_past_jwks_stale_ms', async () => {
    const c = clock();
    const url = freshJwksUrl();
    const jwks = { maxAgeMs: 60_000, staleMs: 30_000 };
    const config = configWith(url, { cache: { jwksColo: false }, jwks });
    const up = mockNet(jwksOf(k.ed));
    up.jwks = () => Response.json(jwksOf(k.ed));
    const store = new FaultyKV(kv.JWKS_CACHE);
    const a = await makeGuard(k, { config, env: { CACHE_KEY, JWKS_CACHE: store }, net: up, deps: { now: c.now } });
    expect((await a.send('/x', bearer(await token(k.ed)))).status).toBe(200);
    // The copy is kept for freshness plus jwks.staleMs: 60 s + 30 s.
    expect(store.puts.map((p) => p.ttl)).toEqual([90]);
    // KV keeps its copy at least 60 s (its minimum TTL), longer than freshness plus staleMs here needs.
    const down = mockNet(jwksOf(k.ed));
    down.jwks = () => new Response('down', { status: 503 });
    c.advance(80_000); // inside the stale window: a new isolate verifies from the KV copy
    const b = await makeGuard(k, { config, env: { CACHE_KEY }, net: down, deps: { now: c.now } });
    expect((await b.send('/x', bearer(await token(k.ed)))).status).toBe(200);
    c.advance(11_000); // 91 s: past 60 s + 30 s
    const late = await makeGuard(k, { config, env: { CACHE_KEY }, net: down, deps: { now: c.now } });
    expect((await late.send('/x', bearer(await token(k.ed)))).status).toBe(503);
    expect(late.guard.counters.get('jwks_store_hit')).toBe(1);
  });

  it('jwks_stale_ms_config', () => {
    const setting = (jwks: unknown): string | number => {
      try {
        return parseConfig(configWith(freshJwksUrl(), { jwks })).jwksStaleMs;
      } catch (e) {
        return (e as ConfigError).setting;
      }
    };
    expect(setting({})).toBe(3_600_000);
    for (const ok of [0, 10_000, 86_400_000]) expect(setting({ staleMs: ok })).toBe(ok);
    for (const bad of [-1, 1.5, 86_400_001, '10000', null, Number.NaN])
      expect(setting({ staleMs: bad })).toBe('jwks.staleMs');
  });

  it('a hung issuer is cut off by jwks.timeoutMs', async () => {
    const net = mockNet(jwksOf(k.ed));
    net.jwks = () => new Promise<Response>(() => undefined);
    const g = await makeGuard(k, { config: configWith(freshJwksUrl(), { jwks: { timeoutMs: 100 } }), net });
    const res = await g.send('/x', bearer(await token(k.ed)));
    expect(res.status).toBe(503);
  });
});

describe('bad key sets', () => {
  const cases: [string, () => Response][] = [
    ['not JSON', () => new Response('<html>', { headers: { 'content-type': 'text/html' } })],
    ['no keys array', () => Response.json({ keys: 'nope' })],
    ['oversized (declared)', () => new Response('x'.repeat(300_000), { headers: { 'content-length': '300000' } })],
    ['oversized (streamed)', () => new Response(new Blob(['{"keys":[', ' '.repeat(300_000), ']}']).stream())],
    ['redirect', () => new Response(null, { status: 302, headers: { location: 'https://evil.example/jwks' } })],
  ];
  for (const [name, reply] of cases) {
    it(`${name}: 503, never a pass`, async () => {
      const net = mockNet(jwksOf(k.ed));
      net.jwks = reply;
      const g = await makeGuard(k, { config: configWith(freshJwksUrl()), net });
      expect((await g.send('/x', bearer(await token(k.ed)))).status).toBe(503);
      expect(net.calls.filter((c) => c.url.includes('evil')).length).toBe(0);
    });
  }

  it('one broken key does not take the set down', async () => {
    const net = mockNet(jwksOf(k.ed));
    net.jwks = () =>
      Response.json({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: '!!!', kid: 'bad' }, ...jwksOf(k.ed).keys] });
    const g = await makeGuard(k, { config: configWith(freshJwksUrl()), net });
    expect((await g.send('/x', bearer(await token(k.ed)))).status).toBe(200);
  });
});
