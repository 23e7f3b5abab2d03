// Local and remote key sets (src/keys/local.ts, src/keys/remote.ts). Remote tests inject fetch and the clock.
import { describe, expect, it } from 'vitest';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  createVerifier,
  type JWK,
  type JWKSStore,
  type JSONWebKeySet,
  type StoredJWKS,
} from '../../src/index.js';
import { claims, codeOf, codeOfSync, generate, mint, nowDate, type KeyPair } from './jwt-mint.js';

async function keyWithKid(alg: string, kid: string): Promise<KeyPair & { jwk: JWK }> {
  const pair = await generate(alg);
  return { ...pair, jwk: { ...(pair.publicJwk as JWK), kid } };
}

describe('local JWKS', () => {
  it('selects by kid; without a kid, by a single key of the right type', async () => {
    const a = await keyWithKid('EdDSA', 'a');
    const b = await keyWithKid('ES256', 'b');
    const set = createLocalJWKSet({ keys: [a.jwk, b.jwk] });
    const v = createVerifier({ algorithms: ['EdDSA', 'ES256'], jwks: set, currentDate: nowDate });
    const ta = await mint(a, claims(), { kid: 'a' });
    const tb = await mint(b, claims(), { kid: 'b' });
    const tNoKid = await mint(a, claims());
    expect((await v.verify(ta)).header.kid).toBe('a');
    expect((await v.verify(tb)).header.kid).toBe('b');
    expect(await codeOf(() => v.verify(tNoKid))).toBe('OK');
    expect(await codeOf(async () => v.verify(await mint(a, claims(), { kid: 'zzz' })))).toBe(
      'ERR_JWKS_NO_MATCHING_KEY',
    );
    // kid of b but signed by a with EdDSA: b is an EC key, so no key fits.
    expect(await codeOf(async () => v.verify(await mint(a, claims(), { kid: 'b' })))).toBe('ERR_JWKS_NO_MATCHING_KEY');
  });
  it('two keys that both fit a kid-less token are ambiguous', async () => {
    const a = await keyWithKid('EdDSA', 'a');
    const b = await keyWithKid('EdDSA', 'b');
    const v = createVerifier({ algorithms: ['EdDSA'], jwks: { keys: [a.jwk, b.jwk] }, currentDate: nowDate });
    expect(await codeOf(async () => v.verify(await mint(a, claims())))).toBe('ERR_JWKS_MULTIPLE_MATCHING_KEYS');
  });
  it('skips keys it cannot use; rejects a set that is not a JWKS', async () => {
    const a = await keyWithKid('ES256', 'a');
    const set = {
      keys: [
        { kty: 'OKP', crv: 'X25519', x: 'AAAA' },
        { kty: 'EC', crv: 'P-256', x: '!', y: '!' },
        { kty: 'RSA', n: 'AQAB', e: 'AQAB', use: 'enc' },
        a.jwk,
      ],
    };
    const v = createVerifier({ algorithms: ['ES256'], jwks: set as JSONWebKeySet, currentDate: nowDate });
    expect(await codeOf(async () => v.verify(await mint(a, claims(), { kid: 'a' })))).toBe('OK');
    for (const bad of [null, {}, { keys: 'x' }, { keys: [1] }]) {
      expect(codeOfSync(() => createLocalJWKSet(bad as never))).toBe('ERR_JWKS_INVALID');
    }
  });
  it('HMAC keys in a local set are usable, and can be refused', async () => {
    const h = await generate('HS256');
    const jwk = { ...(h.publicJwk as JWK), kid: 'h' };
    const t = await mint(h, claims(), { kid: 'h' });
    expect(
      codeOfSync(() =>
        createVerifier({ algorithms: ['HS256'], jwks: { keys: [jwk] }, currentDate: nowDate }).verifySync(t),
      ),
    ).toBe('OK');
    const refusing = createVerifier({
      algorithms: ['HS256'],
      jwks: createLocalJWKSet({ keys: [jwk] }, { allowHmac: false }),
      currentDate: nowDate,
    });
    expect(codeOfSync(() => refusing.verifySync(t))).toBe('ERR_JWKS_NO_MATCHING_KEY');
  });
});

interface MockReply {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  /** Resolve only when this promise does (to hold a fetch in flight). */
  gate?: Promise<void>;
  /** Never answer; reject when aborted. */
  hang?: boolean;
}

function mockFetch(replies: (() => MockReply)[]) {
  const calls: { url: string; init: RequestInit | undefined }[] = [];
  const fn = (async (url: string, init?: RequestInit) => {
    calls.push({ url: String(url), init });
    const next = replies[Math.min(calls.length - 1, replies.length - 1)]!();
    if (next.hang) {
      return new Promise<Response>((_, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new Error('aborted')));
      });
    }
    if (next.gate) await next.gate;
    return new Response(next.body ?? '', { status: next.status ?? 200, headers: next.headers ?? {} });
  }) as typeof fetch;
  return { fn, calls };
}

const jwks = (...keys: JWK[]) => JSON.stringify({ keys });
const URL_ = 'https://issuer.example/.well-known/jwks.json';

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('remote JWKS', () => {
  it('fetches once, with redirect: manual, and serves later verifies from memory', async () => {
    const a = await keyWithKid('EdDSA', 'a');
    const m = mockFetch([() => ({ body: jwks(a.jwk) })]);
    const set = createRemoteJWKSet(URL_, { fetch: m.fn });
    const v = createVerifier({ algorithms: ['EdDSA'], jwks: set, currentDate: nowDate });
    const t = await mint(a, claims(), { kid: 'a' });
    expect(codeOfSync(() => v.verifySync(t))).toBe('ERR_ASYNC_REQUIRED');
    expect(await codeOf(() => v.verify(t))).toBe('OK');
    v.clearCache();
    expect(codeOfSync(() => v.verifySync(t))).toBe('OK'); // set in memory: no promise needed
    expect(m.calls.length).toBe(1);
    expect(m.calls[0]!.init?.redirect).toBe('manual');
    expect(m.calls[0]!.init?.signal).toBeDefined();
  });
  it('concurrent callers share one fetch', async () => {
    const a = await keyWithKid('ES256', 'a');
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const m = mockFetch([() => ({ body: jwks(a.jwk), gate })]);
    const v = createVerifier({
      algorithms: ['ES256'],
      jwks: createRemoteJWKSet(URL_, { fetch: m.fn }),
      currentDate: nowDate,
      cache: false,
    });
    const t = await mint(a, claims(), { kid: 'a' });
    const all = Array.from({ length: 20 }, () => v.verify(t));
    open();
    expect((await Promise.all(all)).length).toBe(20);
    expect(m.calls.length).toBe(1);
  });
  it('rotation: an unknown kid refetches; a second unknown kid waits for the cooldown', async () => {
    const a = await keyWithKid('EdDSA', 'a');
    const b = await keyWithKid('EdDSA', 'b');
    const c = clock();
    const bodies = [jwks(a.jwk), jwks(a.jwk, b.jwk), jwks(a.jwk, b.jwk)];
    const m = mockFetch(bodies.map((body) => () => ({ body })));
    const set = createRemoteJWKSet(URL_, { fetch: m.fn, now: c.now, cooldownDuration: 30_000 });
    const v = createVerifier({ algorithms: ['EdDSA'], jwks: set, currentDate: nowDate });
    expect(await codeOf(async () => v.verify(await mint(a, claims(), { kid: 'a' })))).toBe('OK');
    c.advance(31_000);
    expect(await codeOf(async () => v.verify(await mint(b, claims(), { kid: 'b' })))).toBe('OK'); // rotated in
    expect(m.calls.length).toBe(2);
    const stranger = await mint(b, claims(), { kid: 'unknown' });
    expect(await codeOf(() => v.verify(stranger))).toBe('ERR_JWKS_NO_MATCHING_KEY');
    expect(await codeOf(() => v.verify(stranger))).toBe('ERR_JWKS_NO_MATCHING_KEY');
    expect(m.calls.length).toBe(2); // within the cooldown: no fetch
    c.advance(30_001);
    expect(await codeOf(() => v.verify(stranger))).toBe('ERR_JWKS_NO_MATCHING_KEY');
    expect(m.calls.length).toBe(3);
  });
  it('timeout', async () => {
    const m = mockFetch([() => ({ hang: true })]);
    const v = createVerifier({
      algorithms: ['EdDSA'],
      jwks: createRemoteJWKSet(URL_, { fetch: m.fn, timeoutDuration: 20 }),
      currentDate: nowDate,
    });
    const a = await keyWithKid('EdDSA', 'a');
    expect(await codeOf(async () => v.verify(await mint(a, claims(), { kid: 'a' })))).toBe('ERR_JWKS_TIMEOUT');
  });
  it('5xx: the last good set is served for a bounded time, then the failure surfaces', async () => {
    const a = await keyWithKid('EdDSA', 'a');
    const c = clock();
    const replies = [
      () => ({ body: jwks(a.jwk), headers: { 'cache-control': 'max-age=60' } }),
      () => ({ status: 503 }),
    ];
    const m = mockFetch(replies);
    const set = createRemoteJWKSet(URL_, { fetch: m.fn, now: c.now, staleDuration: 600_000, cooldownDuration: 1_000 });
    const v = createVerifier({ algorithms: ['EdDSA'], jwks: set, currentDate: nowDate, cache: false });
    const t = await mint(a, claims(), { kid: 'a' });
    expect(await codeOf(() => v.verify(t))).toBe('OK');
    c.advance(61_000); // stale: refetch fails, last good set still serves
    expect(await codeOf(() => v.verify(t))).toBe('OK');
    expect(m.calls.length).toBe(2);
    expect(await codeOf(() => v.verify(t))).toBe('OK'); // within cooldown after a failure: no new fetch
    expect(m.calls.length).toBe(2);
    c.advance(600_000); // past freshness + staleDuration
    expect(await codeOf(() => v.verify(t))).toBe('ERR_JWKS_FETCH_FAILED');
  });
  it('oversized, malformed and redirecting responses', async () => {
    const a = await keyWithKid('EdDSA', 'a');
    const t = await mint(a, claims(), { kid: 'a' });
    const cases: [string, MockReply, string][] = [
      ['declared too large', { body: jwks(a.jwk), headers: { 'content-length': '999999' } }, 'ERR_JWKS_INVALID'],
      ['streamed too large', { body: JSON.stringify({ keys: [a.jwk], pad: 'x'.repeat(300_000) }) }, 'ERR_JWKS_INVALID'],
      ['not JSON', { body: '<html>' }, 'ERR_JWKS_INVALID'],
      ['not a JWKS', { body: '{"keys":{}}' }, 'ERR_JWKS_INVALID'],
      ['redirect', { status: 302, headers: { location: 'https://attacker.example/jwks' } }, 'ERR_JWKS_FETCH_FAILED'],
      ['404', { status: 404 }, 'ERR_JWKS_FETCH_FAILED'],
    ];
    for (const [name, reply, code] of cases) {
      const m = mockFetch([() => reply]);
      const v = createVerifier({
        algorithms: ['EdDSA'],
        jwks: createRemoteJWKSet(URL_, { fetch: m.fn }),
        currentDate: nowDate,
      });
      expect(await codeOf(() => v.verify(t)), name).toBe(code);
    }
  });
  it('Cache-Control max-age is honoured within bounds', async () => {
    const a = await keyWithKid('EdDSA', 'a');
    const t = await mint(a, claims(), { kid: 'a' });
    for (const [header, freshMs] of [
      ['max-age=120', 120_000],
      ['public, max-age=1', 30_000], // below cacheMinAge
      ['max-age=99999999', 600_000], // above cacheMaxAge
      ['no-store', 30_000],
    ] as const) {
      const c = clock();
      const m = mockFetch([() => ({ body: jwks(a.jwk), headers: { 'cache-control': header } })]);
      const set = createRemoteJWKSet(URL_, { fetch: m.fn, now: c.now });
      const v = createVerifier({ algorithms: ['EdDSA'], jwks: set, currentDate: nowDate, cache: false });
      await v.verify(t);
      c.advance(freshMs - 1);
      await v.verify(t);
      expect(m.calls.length, header).toBe(1);
      c.advance(2);
      await v.verify(t);
      expect(m.calls.length, header).toBe(2);
    }
  });
  it('an older response never replaces a newer set', async () => {
    const old = await keyWithKid('EdDSA', 'old');
    const fresh = await keyWithKid('EdDSA', 'new');
    let releaseStore!: () => void;
    const storeGate = new Promise<void>((r) => (releaseStore = r));
    const store: JWKSStore = {
      async get() {
        await storeGate;
        return {
          jwks: { keys: [old.jwk] },
          fetchedAt: nowDate.getTime() - 1000,
          freshUntil: nowDate.getTime() + 60_000,
        };
      },
      put() {},
    };
    const m = mockFetch([() => ({ body: jwks(fresh.jwk) })]);
    const set = createRemoteJWKSet(URL_, { fetch: m.fn, store });
    const v = createVerifier({ algorithms: ['EdDSA'], jwks: set, currentDate: nowDate, cache: false });
    const tNew = await mint(fresh, claims(), { kid: 'new' });
    const slow = v.verify(tNew); // waits on the store (older data)
    expect(await codeOf(() => v.verify(tNew))).toBe('OK'); // goes to the network meanwhile
    releaseStore();
    expect(await codeOf(() => slow)).toBe('OK');
    // The store's older set did not replace the network's newer one.
    expect(codeOfSync(() => v.verifySync(tNew))).toBe('OK');
    expect(await codeOf(async () => v.verify(await mint(old, claims(), { kid: 'old' })))).toBe(
      'ERR_JWKS_NO_MATCHING_KEY',
    );
  });
  it('store hook: put after a fetch, get before the network in a fresh isolate', async () => {
    const a = await keyWithKid('EdDSA', 'a');
    const saved = new Map<string, { entry: StoredJWKS; ttl: number }>();
    const store: JWKSStore = {
      get: (url) => saved.get(url)?.entry,
      put: (url, entry, ttl) => {
        saved.set(url, { entry, ttl });
      },
    };
    const m1 = mockFetch([() => ({ body: jwks(a.jwk), headers: { 'cache-control': 'max-age=300' } })]);
    const t = await mint(a, claims(), { kid: 'a' });
    await createVerifier({
      algorithms: ['EdDSA'],
      jwks: createRemoteJWKSet(URL_, { fetch: m1.fn, store }),
      currentDate: nowDate,
    }).verify(t);
    // Kept for its fresh life plus the stale window (staleDuration, 1 h by default).
    expect(saved.get(URL_)?.ttl).toBe(300 + 3600);
    const m2 = mockFetch([() => ({ status: 500 })]);
    const second = createVerifier({
      algorithms: ['EdDSA'],
      jwks: createRemoteJWKSet(URL_, { fetch: m2.fn, store }),
      currentDate: nowDate,
    });
    expect(await codeOf(() => second.verify(t))).toBe('OK');
    expect(m2.calls.length).toBe(0);
    // A failing store is a miss, never an error.
    const broken: JWKSStore = {
      get: () => Promise.reject(new Error('kv down')),
      put: () => Promise.reject(new Error('kv down')),
    };
    const m3 = mockFetch([() => ({ body: jwks(a.jwk) })]);
    const third = createVerifier({
      algorithms: ['EdDSA'],
      jwks: createRemoteJWKSet(URL_, { fetch: m3.fn, store: broken }),
      currentDate: nowDate,
    });
    expect(await codeOf(() => third.verify(t))).toBe('OK');
  });
  it('HMAC keys from a remote set are refused unless allowHmac', async () => {
    const h = await generate('HS256');
    const jwk = { ...(h.publicJwk as JWK), kid: 'h' };
    const t = await mint(h, claims(), { kid: 'h' });
    const m = mockFetch([() => ({ body: jwks(jwk) })]);
    const v = createVerifier({
      algorithms: ['HS256'],
      jwks: createRemoteJWKSet(URL_, { fetch: m.fn }),
      currentDate: nowDate,
    });
    expect(await codeOf(() => v.verify(t))).toBe('ERR_JWKS_NO_MATCHING_KEY');
    const m2 = mockFetch([() => ({ body: jwks(jwk) })]);
    const allowed = createVerifier({
      algorithms: ['HS256'],
      jwks: createRemoteJWKSet(URL_, { fetch: m2.fn, allowHmac: true }),
      currentDate: nowDate,
    });
    expect(await codeOf(() => allowed.verify(t))).toBe('OK');
  });
  it('fresh and reload(): a reload fetches at once and concurrent reloads share it', async () => {
    const a = await keyWithKid('EdDSA', 'a');
    const c = clock();
    const m = mockFetch([() => ({ body: jwks(a.jwk), headers: { 'cache-control': 'max-age=60' } })]);
    const set = createRemoteJWKSet(URL_, { fetch: m.fn, now: c.now });
    expect(set.fresh).toBe(false);
    await Promise.all([set.reload(), set.reload()]);
    expect(m.calls.length).toBe(1);
    expect(set.fresh).toBe(true);
    c.advance(60_000);
    expect(set.fresh).toBe(false);
    await set.reload();
    expect(m.calls.length).toBe(2);
  });
  it('rejects a non-http(s) URL and bad durations', () => {
    expect(codeOfSync(() => createRemoteJWKSet('file:///etc/passwd'))).toBe('ERR_OPTIONS_INVALID');
    expect(codeOfSync(() => createRemoteJWKSet(URL_, { timeoutDuration: -1 }))).toBe('ERR_OPTIONS_INVALID');
  });
});
