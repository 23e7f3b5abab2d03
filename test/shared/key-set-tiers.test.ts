// Key-set tiers (src/keys/tiers.ts, store.ts, cache-store.ts): memory -> a data-centre
// cache (a spec-like Cache API fake) -> a KV-like store -> the issuer; one deadline over
// the lookup; freshness carried by every tier; refetches bounded per data centre.
import { describe, expect, it } from 'vitest';
import {
  cacheApiStore,
  createRemoteJWKSet,
  createSealer,
  createVerifier,
  type JWK,
  type JWKSStore,
  type RemoteJWKSetOptions,
} from '../../src/index.js';
import { claims, codeOf, generate, mint, nowDate, type KeyPair } from './jwt-mint.js';
import { FakeCache } from './fake-cache.js';

const URL_ = 'https://issuer.example/.well-known/jwks.json';
const SECRET = new Uint8Array(32).fill(9);

async function keyWithKid(kid: string): Promise<KeyPair & { jwk: JWK }> {
  const pair = await generate('EdDSA');
  return { ...pair, jwk: { ...(pair.publicJwk as JWK), kid } };
}

function clock(start = 1_700_000_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

/** The issuer: serves `keys` (or fails), counts fetches. */
function issuer(keys: JWK[], maxAge = 600) {
  const state = { keys, down: false, calls: 0 };
  const fn = (async () => {
    state.calls++;
    if (state.down) return new Response('down', { status: 503 });
    return new Response(JSON.stringify({ keys: state.keys }), { headers: { 'cache-control': `max-age=${maxAge}` } });
  }) as typeof fetch;
  return Object.assign(state, { fn });
}

/** A KV-like tier: keeps whatever it is given, as JSON, and counts reads. */
function kvLike(): JWKSStore & { reads: number; data: Map<string, string> } {
  const data = new Map<string, string>();
  const s = {
    reads: 0,
    data,
    get: (url: string) => {
      s.reads++;
      const v = data.get(url);
      return v === undefined ? undefined : JSON.parse(v);
    },
    put: (url: string, entry: unknown) => void data.set(url, JSON.stringify(entry)),
  };
  return s;
}

/** Writes handed to waitUntil, so a test can let them land. */
function writes() {
  const pending: Promise<unknown>[] = [];
  return { waitUntil: (p: Promise<unknown>) => void pending.push(p), settle: () => Promise.all(pending.splice(0)) };
}

const verifierOf = (jwks: ReturnType<typeof createRemoteJWKSet>) =>
  createVerifier({ algorithms: ['EdDSA'], jwks, currentDate: nowDate, cache: false });

/** A fresh isolate's verifier: a new remote set over the shared tiers. */
const fresh = (options: RemoteJWKSetOptions) => verifierOf(createRemoteJWKSet(URL_, options));
const sealed = async (cache: FakeCache) => cacheApiStore({ seal: await createSealer(SECRET), cache });

describe('store tiers', () => {
  it('nearest tier first; a set found farther is copied nearer; a fresh isolate makes no fetch', async () => {
    const a = await keyWithKid('a');
    const c = clock();
    const idp = issuer([a.jwk]);
    const cache = new FakeCache(c.now);
    const colo = cacheApiStore({ seal: await createSealer(SECRET), cache });
    const kv = kvLike();
    const w = writes();
    const first = createRemoteJWKSet(URL_, { fetch: idp.fn, now: c.now, store: kv, waitUntil: w.waitUntil });
    const t = await mint(a, claims(), { kid: 'a' });
    expect(await codeOf(() => verifierOf(first).verify(t))).toBe('OK');
    await w.settle();
    // An isolate with both tiers: KV answers, the colo tier gets a copy.
    const second = createRemoteJWKSet(URL_, { fetch: idp.fn, now: c.now, store: [colo, kv], waitUntil: w.waitUntil });
    expect(await codeOf(() => verifierOf(second).verify(t))).toBe('OK');
    await w.settle();
    expect(kv.reads).toBe(2);
    // The next fresh isolate stops at the colo tier.
    const third = createRemoteJWKSet(URL_, { fetch: idp.fn, now: c.now, store: [colo, kv], waitUntil: w.waitUntil });
    expect(await codeOf(() => verifierOf(third).verify(t))).toBe('OK');
    expect(kv.reads).toBe(2);
    expect(idp.calls).toBe(1);
  });

  it('one deadline over the whole lookup: a tier that hangs past it leaves the farther ones unread', async () => {
    const a = await keyWithKid('a');
    const idp = issuer([a.jwk]);
    let farther = 0;
    const hung: JWKSStore = { get: () => new Promise(() => undefined), put: () => undefined };
    const next: JWKSStore = { get: () => void farther++, put: () => undefined };
    const set = createRemoteJWKSet(URL_, { fetch: idp.fn, store: [hung, next], storeTimeoutDuration: 50 });
    expect(await codeOf(async () => verifierOf(set).verify(await mint(a, claims(), { kid: 'a' })))).toBe('OK');
    expect(farther).toBe(0);
    expect(idp.calls).toBe(1);
  });

  it('tier_that_throws_is_a_miss_and_the_farther_tier_still_serves', async () => {
    const a = await keyWithKid('a');
    const idp = issuer([a.jwk]);
    const broken: JWKSStore = { get: () => Promise.reject(new Error('cache down')), put: () => undefined };
    const kv = kvLike();
    kv.data.set(
      URL_,
      JSON.stringify({ jwks: { keys: [a.jwk] }, fetchedAt: Date.now(), freshUntil: Date.now() + 600_000 }),
    );
    const set = createRemoteJWKSet(URL_, { fetch: idp.fn, store: [broken, kv] });
    expect(await codeOf(async () => verifierOf(set).verify(await mint(a, claims(), { kid: 'a' })))).toBe('OK');
    expect(kv.reads).toBe(1);
    expect(idp.calls).toBe(0);
  });

  it('a write that never settles delays no verify', async () => {
    const a = await keyWithKid('a');
    const idp = issuer([a.jwk]);
    const stuck: JWKSStore = { get: () => undefined, put: () => new Promise(() => undefined) };
    const set = createRemoteJWKSet(URL_, { fetch: idp.fn, store: [stuck, stuck] });
    expect(await codeOf(async () => verifierOf(set).verify(await mint(a, claims(), { kid: 'a' })))).toBe('OK');
  });

  it('claim_note_write_that_never_settles_delays_no_fetch', async () => {
    const a = await keyWithKid('a');
    const idp = issuer([a.jwk]);
    // A tier that keeps attempts but never finishes writing one: the claimant must not wait for it.
    const stuck: JWKSStore = {
      get: () => undefined,
      put: () => undefined,
      getAttempt: () => undefined,
      putAttempt: () => new Promise(() => undefined),
    };
    const set = createRemoteJWKSet(URL_, { fetch: idp.fn, store: stuck, storeTimeoutDuration: 3000 });
    const started = Date.now();
    expect(await codeOf(async () => verifierOf(set).verify(await mint(a, claims(), { kid: 'a' })))).toBe('OK');
    expect(Date.now() - started).toBeLessThan(1500);
    expect(idp.calls).toBe(1);
  });

  // The regression: a store entry used to be trusted for cacheMinAge from the moment it
  // was read, whatever its age, so a key the issuer had dropped kept verifying through KV
  // long past the max age. Each tier now carries the set's fetch time and freshness.
  for (const tier of ['cache-api', 'kv-like'] as const) {
    it(`dropped_key_stops_verifying_within_max_age_via_${tier.replace('-', '_')}_tier`, async () => {
      const [a, b] = [await keyWithKid('a'), await keyWithKid('b')];
      const c = clock();
      const idp = issuer([a.jwk, b.jwk], 600);
      const store = tier === 'cache-api' ? await sealed(new FakeCache(c.now)) : kvLike();
      const w = writes();
      const options = { fetch: idp.fn, now: c.now, store, waitUntil: w.waitUntil };
      const tb = await mint(b, claims(), { kid: 'b' });
      expect(await codeOf(() => verifierOf(createRemoteJWKSet(URL_, options)).verify(tb))).toBe('OK');
      await w.settle();
      idp.keys = [a.jwk]; // the issuer drops b
      c.advance(599_000);
      // Within the max age a fresh isolate may still take the stored set...
      expect(await codeOf(() => verifierOf(createRemoteJWKSet(URL_, options)).verify(tb))).toBe('OK');
      c.advance(2_000);
      // ...past it, the stored set is stale: the issuer is asked, and b is gone.
      expect(await codeOf(() => fresh(options).verify(tb))).toBe('ERR_JWKS_NO_MATCHING_KEY');
      expect(idp.calls).toBe(2);
    });
  }

  it('a tier that claims more freshness than cacheMaxAge allows is held to cacheMaxAge', async () => {
    const a = await keyWithKid('a');
    const c = clock();
    const idp = issuer([]);
    const lying: JWKSStore = {
      get: () => ({ jwks: { keys: [a.jwk] }, fetchedAt: c.now(), freshUntil: c.now() + 86_400_000 }),
      put: () => undefined,
    };
    const set = createRemoteJWKSet(URL_, { fetch: idp.fn, now: c.now, store: lying, cacheMaxAge: 60_000 });
    const t = await mint(a, claims(), { kid: 'a' });
    expect(await codeOf(() => verifierOf(set).verify(t))).toBe('OK');
    c.advance(60_001);
    expect(set.fresh).toBe(false);
  });

  it('a bare key set (no times) from a store is a miss', async () => {
    const a = await keyWithKid('a');
    const idp = issuer([a.jwk]);
    const legacy: JWKSStore = { get: () => ({ keys: [a.jwk] }) as never, put: () => undefined };
    const set = createRemoteJWKSet(URL_, { fetch: idp.fn, store: legacy });
    expect(await codeOf(async () => verifierOf(set).verify(await mint(a, claims(), { kid: 'a' })))).toBe('OK');
    expect(idp.calls).toBe(1);
  });
});

describe('Cache API tier', () => {
  it('refuses to be built without a seal, and without a cache where there is no caches.default', async () => {
    expect(await codeOf(async () => cacheApiStore({} as never))).toBe('ERR_OPTIONS_INVALID');
    const noSeal = { seal: undefined as never, cache: new FakeCache() };
    expect(await codeOf(async () => cacheApiStore(noSeal))).toBe('ERR_OPTIONS_INVALID');
    const hasDefault = (globalThis as { caches?: { default?: unknown } }).caches?.default !== undefined;
    const seal = await createSealer(SECRET);
    if (!hasDefault) expect(await codeOf(async () => cacheApiStore({ seal }))).toBe('ERR_OPTIONS_INVALID');
    expect(await codeOf(() => createSealer(new Uint8Array(16)))).toBe('ERR_OPTIONS_INVALID');
    expect(await codeOf(() => createSealer('not base64url!'))).toBe('ERR_OPTIONS_INVALID');
  });

  it('tampered_cache_entry_is_a_miss', async () => {
    const [a, evil] = [await keyWithKid('a'), await keyWithKid('a')];
    const c = clock();
    const idp = issuer([a.jwk]);
    const cache = new FakeCache(c.now);
    const store = cacheApiStore({ seal: await createSealer(SECRET), cache });
    const w = writes();
    const options = { fetch: idp.fn, now: c.now, store, waitUntil: w.waitUntil };
    await verifierOf(createRemoteJWKSet(URL_, options)).verify(await mint(a, claims(), { kid: 'a' }));
    await w.settle();
    const [key] = cache.keys().filter((k) => k.includes('/jwks/'));
    expect(key).toMatch(/^https:\/\//);
    // Another Worker of the zone swaps in its own key, keeping the seal's prefix.
    cache.tamper(key!, (body) => body.replace(JSON.stringify(a.jwk.x), JSON.stringify(evil.jwk.x)));
    const forged = await mint(evil, claims(), { kid: 'a' });
    expect(await codeOf(() => fresh(options).verify(forged))).toBe('ERR_JWS_SIGNATURE_INVALID');
    expect(idp.calls).toBe(2); // the entry did not open: the issuer was asked
    // An entry sealed under another secret does not open either.
    const other = cacheApiStore({ seal: await createSealer(new Uint8Array(32).fill(1)), cache });
    expect(await other.get(URL_)).toBeUndefined();
  });

  it('cache keys are synthetic https URLs from the key-set URL alone', async () => {
    const a = await keyWithKid('a');
    const cache = new FakeCache();
    const w = writes();
    const options = { fetch: issuer([a.jwk]).fn, store: await sealed(cache), waitUntil: w.waitUntil };
    await fresh(options).verify(await mint(a, claims(), { kid: 'a' }));
    await w.settle();
    for (const k of cache.keys()) expect(new URL(k).hostname).toBe('edgejwt-cache.invalid');
    expect(cache.keys().join()).not.toContain('issuer.example');
  });
});

describe('refetch bounded per data centre', () => {
  it('kid_spray_from_100_isolates_sharing_one_cache_makes_at_most_2_fetches_per_cooldown', async () => {
    const a = await keyWithKid('a');
    const c = clock();
    const idp = issuer([a.jwk]);
    const cache = new FakeCache(c.now);
    const store = cacheApiStore({ seal: await createSealer(SECRET), cache });
    const w = writes();
    const options = { fetch: idp.fn, now: c.now, store, waitUntil: w.waitUntil, cooldownDuration: 30_000 };
    await verifierOf(createRemoteJWKSet(URL_, options)).verify(await mint(a, claims(), { kid: 'a' }));
    await w.settle();
    expect(idp.calls).toBe(1);
    const isolates = Array.from({ length: 100 }, () => verifierOf(createRemoteJWKSet(URL_, options)));
    c.advance(30_001); // the first fetch's note stands for a cooldown
    const sprayed = await Promise.all(Array.from({ length: 20 }, (_, i) => mint(a, claims(), { kid: `spray-${i}` })));
    for (let round = 0; round < 3; round++) {
      const before = idp.calls;
      // Every isolate sees sprayed kids at once (the worst interleaving for the note).
      const calls = isolates.flatMap((v) => sprayed.slice(0, 5).map((t) => codeOf(() => v.verify(t))));
      const codes = await Promise.all(calls);
      await w.settle();
      expect(new Set(codes)).toEqual(new Set(['ERR_JWKS_NO_MATCHING_KEY']));
      expect(idp.calls - before).toBeLessThanOrEqual(2);
      expect(idp.calls - before).toBeGreaterThanOrEqual(1);
      c.advance(10_000);
      // Within the cooldown, more sprayed kids cost no fetch anywhere.
      await Promise.all(isolates.map((v) => codeOf(() => v.verify(sprayed[round + 10]!))));
      expect(idp.calls - before).toBeLessThanOrEqual(2);
      c.advance(20_001);
    }
  });

  it('a rotated set one isolate fetched serves the new kid in the others without a fetch', async () => {
    const [a, b] = [await keyWithKid('a'), await keyWithKid('b')];
    const c = clock();
    const idp = issuer([a.jwk]);
    const store = cacheApiStore({ seal: await createSealer(SECRET), cache: new FakeCache(c.now) });
    const w = writes();
    const options = { fetch: idp.fn, now: c.now, store, waitUntil: w.waitUntil };
    const ta = await mint(a, claims(), { kid: 'a' });
    const [one, two] = [verifierOf(createRemoteJWKSet(URL_, options)), verifierOf(createRemoteJWKSet(URL_, options))];
    await one.verify(ta);
    await w.settle();
    await two.verify(ta);
    idp.keys = [a.jwk, b.jwk];
    c.advance(31_000); // past the first fetch's cooldown
    const tb = await mint(b, claims(), { kid: 'b' });
    expect(await codeOf(() => one.verify(tb))).toBe('OK');
    await w.settle();
    expect(await codeOf(() => two.verify(tb))).toBe('OK');
    expect(idp.calls).toBe(2);
  });

  it('provider_down_serves_stale_from_the_colo_tier_within_stale_duration_then_refuses', async () => {
    const a = await keyWithKid('a');
    const c = clock();
    const idp = issuer([a.jwk], 300);
    const store = cacheApiStore({ seal: await createSealer(SECRET), cache: new FakeCache(c.now) });
    const w = writes();
    const options = { fetch: idp.fn, now: c.now, store, waitUntil: w.waitUntil, staleDuration: 600_000 };
    const t = await mint(a, claims(), { kid: 'a' });
    expect(await codeOf(() => verifierOf(createRemoteJWKSet(URL_, options)).verify(t))).toBe('OK');
    await w.settle();
    idp.down = true;
    c.advance(301_000); // the stored set is stale now
    const callsAtOutage = idp.calls;
    // One wave of 100 fresh isolates every 10 s for 5 minutes: all verify from the stale copy.
    for (let s = 0; s < 300; s += 10) {
      const codes = await Promise.all(Array.from({ length: 100 }, () => codeOf(() => fresh(options).verify(t))));
      await w.settle();
      expect(new Set(codes)).toEqual(new Set(['OK']));
      c.advance(10_000);
    }
    // At most one failed fetch per cooldown in the data centre (a lost race: two).
    const minutes = 300 / 60;
    expect(idp.calls - callsAtOutage).toBeLessThanOrEqual(2 * minutes * 2 + 2);
    // Past freshUntil + staleDuration: refused, never a pass.
    c.advance(600_000);
    const late = await codeOf(() => verifierOf(createRemoteJWKSet(URL_, options)).verify(t));
    expect(late).toBe('ERR_JWKS_FETCH_FAILED');
  });

  it('without a tier that keeps attempts (no Cache API), the bound is per isolate as before', async () => {
    const a = await keyWithKid('a');
    const c = clock();
    const idp = issuer([a.jwk]);
    const kv = kvLike();
    const w = writes();
    const options = { fetch: idp.fn, now: c.now, store: kv, waitUntil: w.waitUntil };
    await verifierOf(createRemoteJWKSet(URL_, options)).verify(await mint(a, claims(), { kid: 'a' }));
    await w.settle();
    const isolates = Array.from({ length: 10 }, () => verifierOf(createRemoteJWKSet(URL_, options)));
    const spray = await mint(a, claims(), { kid: 'nope' });
    await Promise.all(isolates.map((v) => codeOf(() => v.verify(spray))));
    await Promise.all(isolates.map((v) => codeOf(() => v.verify(spray))));
    expect(idp.calls).toBe(1 + 10);
  });
});
