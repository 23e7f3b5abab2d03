// The Cache API key-set tier in workerd (Miniflare's real caches.default), against the
// fake IdP on 127.0.0.1 (test/fake-idp/): a kid spray from 100 instances sharing the
// cache, a provider outage, a dropped key, a tampered entry.
import { describe, expect, it } from 'vitest';
import {
  cacheApiStore,
  createRemoteJWKSet,
  createSealer,
  createVerifier,
  type CacheLike,
  type JWK,
  type RemoteJWKSetOptions,
} from '../../src/index.js';
import { claims, codeOf, generate, mint, nowDate, type KeyPair } from '../shared/jwt-mint.js';
import { hits, idpBase, serve } from '../fake-idp/client.js';

const SECRET = new Uint8Array(32).fill(3);
let paths = 0;

async function keyWithKid(kid: string): Promise<KeyPair & { jwk: JWK }> {
  const pair = await generate('EdDSA');
  return { ...pair, jwk: { ...(pair.publicJwk as JWK), kid } };
}

function clock(start = Date.now()) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

/** Workers' caches.default (the DOM typings of CacheStorage do not have it). */
const colo = (): CacheLike => (caches as unknown as { default: CacheLike }).default;

/** caches.default, with the keys put through it recorded (methods called on the cache, never detached). */
function recordingDefault(): CacheLike & { keys: string[] } {
  const keys: string[] = [];
  return {
    keys,
    match: (r) => colo().match(r),
    put: (r, res) => {
      keys.push(r.url);
      return colo().put(r, res);
    },
  };
}

function writes() {
  const pending: Promise<unknown>[] = [];
  return { waitUntil: (p: Promise<unknown>) => void pending.push(p), settle: () => Promise.all(pending.splice(0)) };
}

// Through a closure: another branch fixes the library calling globalThis.fetch as a method of its options.
const viaFetch = ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init)) as typeof fetch;

// Miniflare's cache answers 100 concurrent writes in seconds, not the edge's milliseconds:
// a wider lookup deadline, so the claims are not cut short (a cut-short claim fetches).
const LOOKUP_MS = 10_000;

const verifierOf = (jwks: ReturnType<typeof createRemoteJWKSet>) =>
  createVerifier({ algorithms: ['EdDSA'], jwks, currentDate: nowDate, cache: false });

/** A fresh isolate's verifier for the key set at `path` on the fake IdP. */
const fresh = (path: string, options: RemoteJWKSetOptions) => verifierOf(createRemoteJWKSet(idpBase() + path, options));

/** The options every instance of a test shares: the sealed tier (caches.default unless given), writes, fetch. */
async function shared(w: ReturnType<typeof writes>, extra: RemoteJWKSetOptions = {}, cache?: CacheLike) {
  const store = cacheApiStore({ seal: await createSealer(SECRET), ...(cache === undefined ? {} : { cache }) });
  return { store, waitUntil: w.waitUntil, fetch: viaFetch, storeTimeoutDuration: LOOKUP_MS, ...extra };
}

async function issuerPath(keys: JWK[], maxAge = 600): Promise<string> {
  const path = `/cache-api-${Date.now()}-${paths++}/jwks.json`;
  await serve(path, { keys }, { headers: { 'cache-control': `max-age=${maxAge}` } });
  return path;
}

describe('Cache API tier in workerd', () => {
  it('caches.default is the default cache; a fresh instance reads it and makes no fetch', async () => {
    const a = await keyWithKid('a');
    const path = await issuerPath([a.jwk]);
    const w = writes();
    const options = await shared(w);
    const t = await mint(a, claims(), { kid: 'a' });
    expect(await codeOf(() => fresh(path, options).verify(t))).toBe('OK');
    await w.settle();
    expect(await codeOf(() => fresh(path, options).verify(t))).toBe('OK');
    expect(await hits(path)).toBe(1);
  });

  it('kid spray from 100 instances sharing caches.default: at most 2 fetches per cooldown', async () => {
    const a = await keyWithKid('a');
    const path = await issuerPath([a.jwk]);
    const c = clock();
    const w = writes();
    const options = await shared(w, { now: c.now, cooldownDuration: 30_000 });
    await fresh(path, options).verify(await mint(a, claims(), { kid: 'a' }));
    await w.settle();
    const isolates = Array.from({ length: 100 }, () => fresh(path, options));
    const spray = await Promise.all(Array.from({ length: 5 }, (_, i) => mint(a, claims(), { kid: `spray-${i}` })));
    for (let round = 0; round < 2; round++) {
      c.advance(30_001);
      const before = await hits(path);
      const codes = await Promise.all(isolates.flatMap((v) => spray.map((t) => codeOf(() => v.verify(t)))));
      await w.settle();
      expect(new Set(codes)).toEqual(new Set(['ERR_JWKS_NO_MATCHING_KEY']));
      const fetched = (await hits(path)) - before;
      expect(fetched).toBeGreaterThanOrEqual(1);
      expect(fetched).toBeLessThanOrEqual(2);
    }
  });

  it('provider down: fresh instances verify from the stale copy within staleDuration, then refuse', async () => {
    const a = await keyWithKid('a');
    const path = await issuerPath([a.jwk], 60);
    const c = clock();
    const w = writes();
    const options = await shared(w, { now: c.now, staleDuration: 300_000 });
    const t = await mint(a, claims(), { kid: 'a' });
    expect(await codeOf(() => fresh(path, options).verify(t))).toBe('OK');
    await w.settle();
    await serve(path, 'down', { status: 503 });
    c.advance(61_000);
    const before = await hits(path);
    for (let wave = 0; wave < 3; wave++) {
      const codes = await Promise.all(Array.from({ length: 30 }, () => codeOf(() => fresh(path, options).verify(t))));
      await w.settle();
      expect(new Set(codes)).toEqual(new Set(['OK']));
      c.advance(10_000);
    }
    // Three waves within one cooldown: one failed fetch (two on a lost race).
    expect((await hits(path)) - before).toBeLessThanOrEqual(2);
    c.advance(300_000);
    expect(await codeOf(() => fresh(path, options).verify(t))).toBe('ERR_JWKS_FETCH_FAILED');
  });

  it('a dropped key stops verifying within the max age through the Cache API tier', async () => {
    const [a, b] = [await keyWithKid('a'), await keyWithKid('b')];
    const path = await issuerPath([a.jwk, b.jwk], 120);
    const c = clock();
    const w = writes();
    const options = await shared(w, { now: c.now });
    const tb = await mint(b, claims(), { kid: 'b' });
    expect(await codeOf(() => fresh(path, options).verify(tb))).toBe('OK');
    await w.settle();
    await serve(path, { keys: [a.jwk] }, { headers: { 'cache-control': 'max-age=120' } });
    c.advance(119_000);
    expect(await codeOf(() => fresh(path, options).verify(tb))).toBe('OK');
    c.advance(2_000);
    expect(await codeOf(() => fresh(path, options).verify(tb))).toBe('ERR_JWKS_NO_MATCHING_KEY');
  });

  it('a tampered entry in caches.default is a miss', async () => {
    const [a, evil] = [await keyWithKid('a'), await keyWithKid('a')];
    const path = await issuerPath([a.jwk]);
    const cache = recordingDefault();
    const w = writes();
    const options = await shared(w, {}, cache);
    await fresh(path, options).verify(await mint(a, claims(), { kid: 'a' }));
    await w.settle();
    const key = cache.keys.find((k) => k.includes('/jwks/'))!;
    const body = await (await colo().match(new Request(key)))!.text();
    const forgedBody = body.replace(JSON.stringify(a.jwk.x), JSON.stringify(evil.jwk.x));
    expect(forgedBody).not.toBe(body);
    await colo().put(new Request(key), new Response(forgedBody, { headers: { 'cache-control': 'max-age=600' } }));
    const forged = await mint(evil, claims(), { kid: 'a' });
    expect(await codeOf(() => fresh(path, options).verify(forged))).toBe('ERR_JWS_SIGNATURE_INVALID');
    expect(await hits(path)).toBe(2);
  });
});
