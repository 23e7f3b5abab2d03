// The guard's Cache API tier for fetched key sets and discovery documents (workerd's real
// caches.default, shared by every guard of the test file as by every isolate of a data
// centre): a second guard starts without the provider or KV, a kid spray across guards
// is bounded per data centre, a tampered entry is a miss, a dropped key stops within
// jwks.maxAgeMs, and the tier is off with cache.jwksColo false or without CACHE_KEY.
// Each test uses its own key-set URL (freshJwksUrl), so entries never cross tests.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSealer, type CacheLike } from '../../src/index.js';
import { hits, idpBase, serve } from '../fake-idp/client.js';
import { b64u, generate, mint, type KeyPair } from '../shared/jwt-mint.js';
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
  nowSeconds,
  token,
  type Keys,
} from './harness.js';

let k: Keys;
beforeAll(async () => {
  k = await demoKeys();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

type Section = Record<string, unknown>;

function configWith(url: string, cache: Section = {}, jwks: Section = {}): Section {
  const c = baseConfig(k, { cache, jwks });
  (c.issuers as Record<string, unknown>[])[0]!.jwksUrl = url;
  return c;
}

const colo = (): CacheLike => (caches as unknown as { default: CacheLike }).default;

/** caches.default seen by the guard through a wrapper that records every key put. */
function recordColo(): string[] {
  const puts: string[] = [];
  const real = colo();
  const wrapper: CacheLike = { match: (r) => real.match(r), put: (r, res) => (puts.push(r.url), real.put(r, res)) };
  vi.stubGlobal('caches', { default: wrapper });
  return puts;
}

/** The Cache API key of a key set's entry (as src/keys/cache-store.ts names it) under `secret`. */
async function coloKey(url: string, secret = CACHE_KEY): Promise<string> {
  const d = await (await createSealer(secret)).digest('edgejwt cache key jwks', new TextEncoder().encode(url));
  return `https://edgejwt-cache.invalid/jwks/v1/${d}`;
}

/** Plant a key-set entry in caches.default, sealed under `secret`. */
async function plant(url: string, jwks: unknown, secret: string): Promise<void> {
  const key = await coloKey(url);
  const entry = { jwks, fetchedAt: Date.now(), freshUntil: Date.now() + 600_000 };
  const body = await (await createSealer(secret)).seal(key, JSON.stringify(entry));
  await colo().put(new Request(key), new Response(body, { headers: { 'cache-control': 'max-age=600' } }));
}

const OTHER_SECRET = b64u(new Uint8Array(32).fill(9));

describe('key sets in the Cache API (one copy per data centre)', () => {
  it('second_isolate_verifies_from_colo_without_provider_fetch_or_kv_read', async () => {
    const url = freshJwksUrl();
    const a = await makeGuard(k, { config: configWith(url), env: { CACHE_KEY } });
    expect((await a.send('/x', bearer(await token(k.rs)))).status).toBe(200);
    expect(a.net.jwksCalls()).toBe(1);

    const fk = new FaultyKV(kv.JWKS_CACHE);
    const b = await makeGuard(k, { config: configWith(url), env: { CACHE_KEY, JWKS_CACHE: fk } });
    expect((await b.send('/x', bearer(await token(k.rs)))).status).toBe(200);
    expect(b.net.jwksCalls()).toBe(0);
    expect(fk.gets).toBe(0);
  });

  it('kid_spray_across_20_isolates_fetches_at_most_twice_per_cooldown', async () => {
    const url = freshJwksUrl();
    const net = mockNet(jwksOf(k.ed, k.rs));
    // Miniflare's cache is slower under 20 concurrent writers than the edge: a wide lookup deadline.
    const config = configWith(url, { kvTimeoutMs: 5_000 });
    const guards = await Promise.all(
      Array.from({ length: 20 }, () => makeGuard(k, { config, env: { CACHE_KEY }, net })),
    );
    const before = net.jwksCalls();
    const unknownKid = (): Promise<string> => token({ ...k.rs, kid: crypto.randomUUID() });
    const spray = async (): Promise<number[]> =>
      Promise.all(guards.map(async (g) => (await g.send('/x', bearer(await unknownKid()))).status));
    for (const statuses of [await spray(), await spray()]) expect(statuses.every((s) => s === 401)).toBe(true);
    const fetches = net.jwksCalls() - before;
    console.log(`[key-set-colo] kid spray, 20 guards x 2 requests: ${fetches} provider fetches`);
    expect(fetches).toBeGreaterThanOrEqual(1);
    expect(fetches).toBeLessThanOrEqual(2);
  });

  it('colo_entry_sealed_under_another_secret_is_a_miss', async () => {
    const evil = { ...(await generate('RS256')), kid: 'rs-1' };
    const noKv = { jwks: false };
    // Control: sealed under CACHE_KEY, the planted set is what the guard uses (the tier is read).
    const genuine = freshJwksUrl();
    await plant(genuine, jwksOf(evil), CACHE_KEY);
    const c = await makeGuard(k, { config: configWith(genuine, noKv), env: { CACHE_KEY } });
    expect((await c.send('/x', bearer(await token(evil)))).status).toBe(200);
    expect(c.net.jwksCalls()).toBe(0);

    const url = freshJwksUrl();
    await plant(url, jwksOf(evil), OTHER_SECRET);
    const g = await makeGuard(k, { config: configWith(url, noKv), env: { CACHE_KEY } });
    expect((await g.send('/x', bearer(await token(evil)))).status).toBe(401);
    expect((await g.send('/x', bearer(await token(k.rs)))).status).toBe(200);
    expect(g.net.jwksCalls()).toBe(1);
  });

  it('dropped_key_stops_verifying_within_max_age_through_colo', async () => {
    const url = freshJwksUrl();
    let t = Date.now();
    const now = (): number => t;
    const config = configWith(url, { jwks: false }, { maxAgeMs: 60_000 });
    const a = await makeGuard(k, { config, env: { CACHE_KEY }, deps: { now } });
    expect((await a.send('/x', bearer(await token(k.rs)))).status).toBe(200);
    // The issuer drops rs-1 just after a fetched.
    const net = mockNet(jwksOf(k.ed));
    t += 30_000;
    const b = await makeGuard(k, { config, env: { CACHE_KEY }, net, deps: { now } });
    // Within the max age the colo copy still carries it (as memory would) ...
    expect((await b.send('/x', bearer(await token(k.rs)))).status).toBe(200);
    expect(net.jwksCalls()).toBe(0);
    // ... and past it, no tier serves it: a fresh guard refetches and refuses.
    t += 31_000;
    const c = await makeGuard(k, { config, env: { CACHE_KEY }, net, deps: { now } });
    expect((await c.send('/x', bearer(await token(k.rs)))).status).toBe(401);
    expect(net.jwksCalls()).toBe(1);
  });

  it('jwks_colo_false_keeps_key_sets_out_of_the_cache_api', async () => {
    const puts = recordColo();
    const url = freshJwksUrl();
    const g = await makeGuard(k, { config: configWith(url, { jwksColo: false }), env: { CACHE_KEY } });
    expect((await g.send('/x', bearer(await token(k.rs)))).status).toBe(200);
    expect(puts).toEqual([]);
    // Control: the same guard with the tier on writes there.
    const on = await makeGuard(k, { config: configWith(freshJwksUrl()), env: { CACHE_KEY } });
    expect((await on.send('/x', bearer(await token(k.rs)))).status).toBe(200);
    expect(puts.length).toBeGreaterThan(0);
  });

  it('without_cache_key_nothing_is_written_to_the_cache_api', async () => {
    const puts = recordColo();
    const g = await makeGuard(k, { config: configWith(freshJwksUrl()) });
    expect((await g.send('/x', bearer(await token(k.rs)))).status).toBe(200);
    expect(g.net.jwksCalls()).toBe(1);
    expect(puts).toEqual([]);
  });
});

describe('discovery documents in the Cache API', () => {
  let rs: KeyPair;
  beforeAll(async () => {
    rs = await generate('RS256');
  });
  const realFetch = ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init)) as typeof fetch;

  it('second_isolate_reads_discovery_document_and_key_set_from_colo_without_kv', async () => {
    const path = `/disc-colo-${crypto.randomUUID()}`;
    const iss = `${idpBase()}${path}`;
    await serve(`${path}/.well-known/openid-configuration`, { issuer: iss, jwks_uri: `${iss}/keys` });
    const keys = { keys: [{ ...rs.publicJwk, kid: 'k1', use: 'sig', alg: 'RS256' }] };
    await serve(`${path}/keys`, keys, { headers: { 'cache-control': 'max-age=600' } });
    // No KV copy: whatever the second guard does not fetch, it read from the Cache API.
    const issuers = [{ issuer: iss, audience: 'api', algorithms: ['RS256'] }];
    const config = { issuers, origin: 'builtin:echo', cache: { jwks: false } };
    const t = nowSeconds();
    const jwt = await mint(rs, { iss, aud: 'api', sub: 'colo', iat: t, exp: t + 600 }, { kid: 'k1', typ: 'JWT' });
    for (const _ of [1, 2]) {
      const g = await makeGuard(k, { config, env: { CACHE_KEY }, deps: { fetch: realFetch } });
      expect((await g.send('/x', bearer(jwt))).status).toBe(200);
    }
    expect(await hits(`${path}/.well-known/openid-configuration`)).toBe(1);
    expect(await hits(`${path}/keys`)).toBe(1);
  });
});
