// L2, the KV verify cache: shared between guard instances (two isolates' worth of
// state over one KV binding), sealed under CACHE_KEY and bound to its key, never
// alive past exp, and any KV fault is a miss: never a bad token in, never a good one out.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { b64u, generate } from '../../../shared/jwt-mint.js';
import {
  CACHE_KEY,
  FaultyKV,
  baseConfig,
  bearer,
  demoKeys,
  forged,
  freshJwksUrl,
  kv,
  makeGuard,
  mockNet,
  jwksOf,
  nowSeconds,
  token,
  ISS,
  AUD,
  TestCtx,
  type Keys,
} from '../../harness.js';

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});
afterEach(() => vi.useRealTimers());

/** A config whose KV verify cache takes every algorithm, on a JWKS URL of its own. */
function l2Config(extra: Record<string, unknown> = {}): Record<string, unknown> {
  const c = baseConfig(k, { cache: { verify: 'all', kvTimeoutMs: 25 }, ...extra });
  (c.issuers as Record<string, unknown>[])[0]!.jwksUrl = freshJwksUrl();
  // These tests are about what an entry holds and when it is served: every verify
  // writes. The admission policy (seen-twice, the budget) has its own file.
  (c.cache as Record<string, unknown>).verifyAdmission ??= 'always';
  return c;
}

async function sha256b64u(text: string): Promise<string> {
  return b64u(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))));
}

function downNet() {
  const net = mockNet(jwksOf(k.ed, k.rs));
  net.jwks = () => new Response('down', { status: 502 });
  return net;
}

describe('miss then hit across two guard instances', () => {
  it("the second instance serves the first one's verification from KV, with its issuer down", async () => {
    const config = l2Config();
    const a = await makeGuard(k, { config, env: { CACHE_KEY } });
    const t = await token(k.rs, { sub: 'shared-user' });
    const first = await a.send('/x', bearer(t));
    expect(first.status).toBe(200);
    expect(first.headers.get('server-timing')).toContain('desc="verify"');
    expect(a.guard.counters.get('l2_miss')).toBe(1);
    expect(a.guard.counters.get('l2_write')).toBe(1);

    // The KV key is v2:<policy id>:<key tag>:<base64url(SHA-256(token))>; the value never holds the token.
    const hash = await sha256b64u(t);
    const listed = (await kv.VERIFY_CACHE.list({ prefix: 'v2:' })).keys
      .map((x) => x.name)
      .filter((n) => n.endsWith(`:${hash}`));
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatch(/^v2:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{43}$/);
    const stored = (await kv.VERIFY_CACHE.get(listed[0]!, 'text'))!;
    expect(stored.startsWith('s1.')).toBe(true);
    for (const seg of t.split('.')) expect(stored).not.toContain(seg);

    const b = await makeGuard(k, { config, env: { CACHE_KEY }, net: downNet() });
    const second = await b.send('/x', bearer(t));
    expect(second.status).toBe(200);
    expect(second.headers.get('server-timing')).toContain('desc="l2"');
    expect(((await second.json()) as { headers: Record<string, string> }).headers['x-auth-sub']).toBe('shared-user');
    expect(b.guard.counters.get('l2_hit')).toBe(1);
    expect(b.net.jwksCalls()).toBe(0);
    // ...and then from its own L1.
    expect((await b.send('/x', bearer(t))).headers.get('server-timing')).toContain('desc="l1"');
  });

  it('l2_hit_payload_frozen_all_the_way_down', async () => {
    // L1 then hands the same payload to every request with this token: a nested claim one caller changes must not
    // change what the next caller is told (the library's cache is frozen the same way, src/freeze.ts).
    const config = l2Config();
    const a = await makeGuard(k, { config, env: { CACHE_KEY } });
    const t = await token(k.rs, { sub: 'nested', roles: ['user'], org: { id: 'o1', teams: ['a'] } });
    expect((await a.send('/x', bearer(t))).status).toBe(200);
    const b = await makeGuard(k, { config, env: { CACHE_KEY }, net: downNet() });
    const request = () => new Request('https://api.example.com/x', bearer(t));
    const outcome = await b.guard.authenticate(request(), new TestCtx());
    expect(b.guard.counters.get('l2_hit')).toBe(1);
    if (!outcome.ok || outcome.anonymous) throw new Error('expected an identity');
    const payload = outcome.payload as { roles: string[]; org: { id: string; teams: string[] } };
    for (const part of [payload, payload.roles, payload.org, payload.org.teams])
      expect(Object.isFrozen(part)).toBe(true);
    expect(() => payload.roles.push('admin')).toThrow(TypeError);
    const again = await b.guard.authenticate(request(), new TestCtx());
    if (!again.ok || again.anonymous) throw new Error('expected an identity');
    expect((again.payload as { roles: string[] }).roles).toEqual(['user']);
  });

  it('rules still apply to an L2 hit', async () => {
    const config = l2Config();
    const t = await token(k.ed, { scope: 'read', tenant: 'acme' });
    await (await makeGuard(k, { config, env: { CACHE_KEY } })).send('/x', bearer(t));
    const b = await makeGuard(k, { config, env: { CACHE_KEY } });
    const res = await b.send('/admin/panel', bearer(t));
    expect(res.status).toBe(403);
    expect(b.guard.counters.get('l2_hit')).toBe(1);
  });

  it('another policy (audience changed) does not see the entry', async () => {
    const config = l2Config();
    const t = await token(k.ed, { aud: ['api', 'other'] });
    await (await makeGuard(k, { config, env: { CACHE_KEY } })).send('/x', bearer(t));
    const other = structuredClone(config);
    (other.issuers as Record<string, unknown>[])[0]!.audience = 'other';
    const b = await makeGuard(k, { config: other, env: { CACHE_KEY } });
    expect((await b.send('/x', bearer(t))).status).toBe(200);
    expect(b.guard.counters.get('l2_hit')).toBe(0);
    expect(b.guard.counters.get('l2_miss')).toBe(1);
  });

  it('a rotated HS secret orphans entries made under the old one', async () => {
    const config = l2Config();
    const t = await token(k.hs);
    await (await makeGuard(k, { config, env: { CACHE_KEY } })).send('/x', bearer(t));
    const b = await makeGuard(k, { config, env: { CACHE_KEY, HS_KEY: b64u(new Uint8Array(32).fill(9)) } });
    expect((await b.send('/x', bearer(t))).status).toBe(401);
    expect(b.guard.counters.get('l2_hit')).toBe(0);
  });
});

describe('entry life', () => {
  it('TTL is min(cache.verifyTtl, exp - now); no write when that is under 60 s', async () => {
    const fk = new FaultyKV(kv.VERIFY_CACHE);
    const g = await makeGuard(k, {
      config: l2Config({ cache: { verify: 'all', verifyTtl: 300 } }),
      env: { CACHE_KEY, VERIFY_CACHE: fk },
    });
    const now = nowSeconds();
    await g.send('/x', bearer(await token(k.ed, { exp: now + 3600 })));
    await g.send('/x', bearer(await token(k.ed, { exp: now + 120 })));
    await g.send('/x', bearer(await token(k.ed, { exp: now + 59 })));
    const ttls = fk.puts.map((p) => p.ttl!);
    expect(ttls).toHaveLength(2);
    expect(ttls[0]).toBe(300);
    expect(ttls[1]).toBeGreaterThanOrEqual(118);
    expect(ttls[1]).toBeLessThanOrEqual(120);
  });

  it('an entry is not served once its token expired, even if KV still holds it', async () => {
    const config = l2Config();
    const start = Date.now();
    const exp = Math.floor(start / 1000) + 90;
    const t = await token(k.ed, { exp });
    await (await makeGuard(k, { config, env: { CACHE_KEY } })).send('/x', bearer(t));

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime((exp + 1) * 1000);
    const b = await makeGuard(k, { config, env: { CACHE_KEY } });
    const res = await b.send('/x', bearer(t));
    expect(res.status).toBe(401);
    expect((await res.json()) as unknown).toEqual({
      error: 'invalid_token',
      error_description: 'The access token expired',
    });
    expect(b.guard.counters.get('l2_hit')).toBe(0);
    // KV's own clock has not removed it: the guard's exp check is what refused it.
    const hash = await sha256b64u(t);
    expect((await kv.VERIFY_CACHE.list({ prefix: 'v2:' })).keys.some((x) => x.name.endsWith(hash))).toBe(true);
  });

  it('an L1 entry dies at exp too', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const t0 = Date.now();
    const g = await makeGuard(k, { config: l2Config({ cache: { verify: false } }) });
    const t = await token(k.ed, { exp: Math.floor(t0 / 1000) + 30 });
    expect((await g.send('/x', bearer(t))).status).toBe(200);
    expect((await g.send('/x', bearer(t))).headers.get('server-timing')).toContain('desc="l1"');
    vi.setSystemTime(t0 + 31_000);
    expect((await g.send('/x', bearer(t))).status).toBe(401);
  });
});

describe('entries written without the secret are ignored', () => {
  async function keyFor(t: string, config: Record<string, unknown>): Promise<string> {
    const g = await makeGuard(k, { config, env: { CACHE_KEY } });
    // Under the tag of the configured key the forged token names (ed-1): where a genuine entry would be.
    const l2 = g.guard.parts.l2!;
    const current = await l2.keyTags.current(ISS, 'EdDSA', 'ed-1');
    return l2.cache.key(t, current!.tag);
  }

  it("a plain JSON identity planted under a forged token's key", async () => {
    const config = l2Config();
    const bad = await forged('EdDSA', { sub: 'root', scope: 'admin' });
    const key = await keyFor(bad, config);
    await kv.VERIFY_CACHE.put(key, JSON.stringify({ iss: ISS, aud: AUD, sub: 'root', exp: nowSeconds() + 3600 }));
    const g = await makeGuard(k, { config, env: { CACHE_KEY } });
    expect((await g.send('/x', bearer(bad))).status).toBe(401);
    expect(g.guard.counters.get('l2_rejected_entry')).toBe(1);
  });

  it('an entry sealed under another secret', async () => {
    const config = l2Config();
    const bad = await forged('EdDSA', { sub: 'root' });
    const key = await keyFor(bad, config);
    // Seal with the wrong key by hand: HMAC-SHA256 over "key\njson", as the guard would.
    const json = JSON.stringify({ iss: ISS, aud: AUD, sub: 'root', exp: nowSeconds() + 3600 });
    const wrong = await crypto.subtle.importKey(
      'raw',
      new Uint8Array(32).fill(1),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    const tag = new Uint8Array(await crypto.subtle.sign('HMAC', wrong, new TextEncoder().encode(`${key}\n${json}`)));
    await kv.VERIFY_CACHE.put(key, `s1.${b64u(tag)}.${json}`);
    const g = await makeGuard(k, { config, env: { CACHE_KEY } });
    expect((await g.send('/x', bearer(bad))).status).toBe(401);
    expect(g.guard.counters.get('l2_rejected_entry')).toBe(1);
  });

  it("a genuine entry copied to another token's key", async () => {
    const config = l2Config();
    const good = await token(k.ed, { sub: 'victim' });
    const a = await makeGuard(k, { config, env: { CACHE_KEY } });
    await a.send('/x', bearer(good));
    const l2 = a.guard.parts.l2!.cache;
    const tag = (await a.guard.parts.l2!.keyTags.current(ISS, 'EdDSA', 'ed-1'))!.tag;
    const genuine = (await kv.VERIFY_CACHE.get(l2.key(good, tag), 'text'))!;
    expect(genuine).not.toBeNull();
    const bad = await forged('EdDSA', { sub: 'attacker' });
    await kv.VERIFY_CACHE.put(l2.key(bad, tag), genuine);
    const g = await makeGuard(k, { config, env: { CACHE_KEY } });
    expect((await g.send('/x', bearer(bad))).status).toBe(401);
    expect(g.guard.counters.get('l2_rejected_entry')).toBe(1);
  });
});

describe('KV faults fail closed and never fail a good token', () => {
  for (const mode of ['throw', 'reject', 'hang'] as const) {
    it(`get ${mode}s`, async () => {
      const fk = new FaultyKV(kv.VERIFY_CACHE);
      fk.mode.get = mode;
      const g = await makeGuard(k, { config: l2Config(), env: { CACHE_KEY, VERIFY_CACHE: fk } });
      const started = Date.now();
      expect((await g.send('/x', bearer(await token(k.ed)))).status).toBe(200);
      expect((await g.send('/x', bearer(await forged('EdDSA')))).status).toBe(401);
      expect((await g.send('/x', bearer(await forged('RS256')))).status).toBe(401);
      expect(g.guard.counters.get('l2_error')).toBe(3);
      // A hung read costs at most cache.kvTimeoutMs (25 ms here) per request.
      expect(Date.now() - started).toBeLessThan(2_000);
    });

    it(`put ${mode}s`, async () => {
      const fk = new FaultyKV(kv.VERIFY_CACHE);
      fk.mode.put = mode;
      const g = await makeGuard(k, {
        config: l2Config(),
        env: { CACHE_KEY, VERIFY_CACHE: fk },
        settle: mode !== 'hang',
      });
      expect((await g.send('/x', bearer(await token(k.ed)))).status).toBe(200);
      expect((await g.send('/x', bearer(await forged('EdDSA')))).status).toBe(401);
      expect(fk.puts).toHaveLength(1);
      if (mode !== 'hang') expect(g.guard.counters.get('l2_write_error')).toBe(1);
    });
  }

  it('the write goes through ctx.waitUntil, not the response path', async () => {
    const fk = new FaultyKV(kv.VERIFY_CACHE);
    fk.mode.put = 'hang';
    const g = await makeGuard(k, { config: l2Config(), env: { CACHE_KEY, VERIFY_CACHE: fk }, settle: false });
    // With a put that never finishes, the response still arrives.
    expect((await g.send('/x', bearer(await token(k.rs)))).status).toBe(200);
  });
});

describe('switches', () => {
  it('without CACHE_KEY the KV verify cache is off (and says so once)', async () => {
    const fk = new FaultyKV(kv.VERIFY_CACHE);
    const g = await makeGuard(k, { config: l2Config(), env: { CACHE_KEY: undefined, VERIFY_CACHE: fk } });
    await g.send('/x', bearer(await token(k.ed)));
    await g.send('/x', bearer(await token(k.ed)));
    expect(fk.gets + fk.puts.length).toBe(0);
    expect(g.logs.filter((l) => l.includes('CACHE_KEY is not set'))).toHaveLength(1);
  });

  it('cache.verify: true sends only the measured default list (ECDSA) to KV', async () => {
    const es = { ...(await generate('ES256')), kid: 'es-1' };
    const fk = new FaultyKV(kv.VERIFY_CACHE);
    const config = l2Config({ cache: { verify: true } });
    const is0 = (config.issuers as Record<string, unknown>[])[0]!;
    is0.algorithms = ['EdDSA', 'RS256', 'ES256'];
    const net = mockNet({ keys: [...jwksOf(k.ed, k.rs).keys, ...jwksOf(es).keys] });
    const g = await makeGuard(k, { config, net, env: { CACHE_KEY, VERIFY_CACHE: fk } });
    for (const pair of [k.ed, k.rs, k.hs]) expect((await g.send('/x', bearer(await token(pair)))).status).toBe(200);
    expect(fk.gets + fk.puts.length).toBe(0);
    expect((await g.send('/x', bearer(await token(es)))).status).toBe(200);
    expect(fk.gets).toBe(1);
    expect(fk.puts).toHaveLength(1);
  });

  it('cache.verify: true with no ECDSA issuer leaves L2 off entirely', async () => {
    const g = await makeGuard(k, { config: l2Config({ cache: { verify: true } }), env: { CACHE_KEY } });
    expect(g.guard.parts.l2).toBeUndefined();
  });

  it('tokens naming an unconfigured issuer or a disallowed alg cost no KV read', async () => {
    const fk = new FaultyKV(kv.VERIFY_CACHE);
    const g = await makeGuard(k, { config: l2Config(), env: { CACHE_KEY, VERIFY_CACHE: fk } });
    expect((await g.send('/x', bearer(await token(k.ed, { iss: 'https://made-up.example' })))).status).toBe(401);
    expect((await g.send('/x', bearer(await token(k.hs, { iss: ISS })))).status).toBe(401);
    expect(fk.gets).toBe(0);
    expect((await g.send('/x', bearer(await token(k.ed)))).status).toBe(200);
    expect(fk.gets).toBe(1);
  });

  it('cache.verify as a list sends only those algorithms to KV', async () => {
    const fk = new FaultyKV(kv.VERIFY_CACHE);
    const g = await makeGuard(k, {
      config: l2Config({ cache: { verify: ['RS256'] } }),
      env: { CACHE_KEY, VERIFY_CACHE: fk },
    });
    await g.send('/x', bearer(await token(k.ed)));
    await g.send('/x', bearer(await token(k.hs)));
    expect(fk.gets).toBe(0);
    await g.send('/x', bearer(await token(k.rs)));
    expect(fk.gets).toBe(1);
    expect(fk.puts).toHaveLength(1);
  });
});
