// A remote key set against endpoints and stores that never answer (issue 22): every
// verify settles, the fetch under one deadline (body included), the store as a cache
// that is read under a deadline and written off the request's path.
import { describe, expect, it } from 'vitest';
import { createRemoteJWKSet, createVerifier } from '../../src/index.js';
import { claims, codeOf, mint, nowDate } from './jwt-mint.js';
import { URL_, keyWithKid, sets } from './remote-jwks-fakes.js';

/** A 200 whose body sends `head` and then never another byte, and ignores the fetch's abort signal. */
function stalledBody(head: string): Response {
  return new Response(
    new ReadableStream<Uint8Array>({
      start: (c) => c.enqueue(new TextEncoder().encode(head)),
      pull: () => new Promise<void>(() => undefined),
    }),
    { headers: { 'content-type': 'application/json' } },
  );
}

describe('remote JWKS: a body that stalls', () => {
  it('jwks_body_ignoring_abort_times_out', async () => {
    const a = await keyWithKid('EdDSA', 'a');
    let calls = 0;
    const fetchStalled = (async () => {
      calls++;
      return stalledBody('{"keys":[');
    }) as unknown as typeof fetch;
    const set = createRemoteJWKSet(URL_, { fetch: fetchStalled, timeoutDuration: 50 });
    const v = createVerifier({ algorithms: ['EdDSA'], jwks: set, currentDate: nowDate, cache: false });
    const t = await mint(a, claims(), { kid: 'a' });
    // The first verify and those joined on its fetch all get the timeout.
    const codes = await Promise.all(Array.from({ length: 5 }, () => codeOf(() => v.verify(t))));
    expect(codes).toEqual(Array(5).fill('ERR_JWKS_TIMEOUT'));
    expect(calls).toBe(1);
  });
});

/** A fetch that answers each call with the next key set (the last one repeats). */
const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

function clock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

// Issue 22 item 3: the store is a cache. A read gets its own deadline, then the
// network; a write is never waited for (it goes to waitUntil when one is given).
describe('remote JWKS: a store that never answers', () => {
  it('hung_store_first_verify', async () => {
    const a = await keyWithKid('EdDSA', 'a');
    const f = sets([a.jwk]);
    const store = { get: never, put: never };
    const v = createVerifier({
      algorithms: ['EdDSA'],
      jwks: createRemoteJWKSet(URL_, { fetch: f, store, storeTimeoutDuration: 20 }),
      currentDate: nowDate,
      cache: false,
    });
    expect(await codeOf(async () => v.verify(await mint(a, claims(), { kid: 'a' })))).toBe('OK');
    expect(f.calls).toBe(1);
  });

  it('hung_store_concurrent_verifies', async () => {
    const a = await keyWithKid('EdDSA', 'a');
    const f = sets([a.jwk]);
    let gets = 0;
    const store = { get: () => (gets++, never<undefined>()), put: never };
    const v = createVerifier({
      algorithms: ['EdDSA'],
      jwks: createRemoteJWKSet(URL_, { fetch: f, store, storeTimeoutDuration: 20 }),
      currentDate: nowDate,
      cache: false,
    });
    const t = await mint(a, claims(), { kid: 'a' });
    const codes = await Promise.all(Array.from({ length: 10 }, () => codeOf(() => v.verify(t))));
    expect(codes).toEqual(Array(10).fill('OK'));
    // One store read, one fetch, shared by all ten.
    expect([gets, f.calls]).toEqual([1, 1]);
  });

  it('hung_store_unknown_kid', async () => {
    const a = await keyWithKid('EdDSA', 'a');
    const b = await keyWithKid('EdDSA', 'b');
    const f = sets([a.jwk], [a.jwk, b.jwk]);
    const c = clock();
    let puts = 0;
    // The first write lands; every later one hangs.
    const store = { get: () => undefined, put: () => (puts++ === 0 ? undefined : never<void>()) };
    const v = createVerifier({
      algorithms: ['EdDSA'],
      jwks: createRemoteJWKSet(URL_, { fetch: f, store, now: c.now, cooldownDuration: 1000 }),
      currentDate: nowDate,
      cache: false,
    });
    expect(await codeOf(async () => v.verify(await mint(a, claims(), { kid: 'a' })))).toBe('OK');
    c.advance(1001);
    // A new kid refetches; the write after that fetch never settles, the verify does.
    expect(await codeOf(async () => v.verify(await mint(b, claims(), { kid: 'b' })))).toBe('OK');
    expect([f.calls, puts]).toEqual([2, 2]);
  });

  it('hung_store_after_max_age', async () => {
    const a = await keyWithKid('EdDSA', 'a');
    const f = sets([a.jwk]);
    const c = clock();
    let puts = 0;
    const store = { get: () => undefined, put: () => (puts++ === 0 ? undefined : never<void>()) };
    const v = createVerifier({
      algorithms: ['EdDSA'],
      jwks: createRemoteJWKSet(URL_, { fetch: f, store, now: c.now }),
      currentDate: nowDate,
      cache: false,
    });
    const t = await mint(a, claims(), { kid: 'a' });
    expect(await codeOf(() => v.verify(t))).toBe('OK');
    c.advance(60_001); // past max-age=60
    expect(await codeOf(() => v.verify(t))).toBe('OK');
    expect([f.calls, puts]).toEqual([2, 2]);
  });

  it('store_write_goes_to_waitUntil', async () => {
    const a = await keyWithKid('EdDSA', 'a');
    const handed: Promise<unknown>[] = [];
    let finishWrite!: () => void;
    const written = new Promise<void>((r) => (finishWrite = r));
    const store = { get: () => undefined, put: () => written };
    const set = createRemoteJWKSet(URL_, { fetch: sets([a.jwk]), store, waitUntil: (p) => handed.push(p) });
    const v = createVerifier({ algorithms: ['EdDSA'], jwks: set, currentDate: nowDate, cache: false });
    expect(await codeOf(async () => v.verify(await mint(a, claims(), { kid: 'a' })))).toBe('OK');
    expect(handed.length).toBe(1);
    let settled = false;
    void handed[0]!.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false); // the verify answered before the write finished
    finishWrite();
    await handed[0];
    expect(settled).toBe(true);
  });
});

// Issue 22: a verifier's cache ties each result to the key that proved it.
describe('remote JWKS: a key the issuer removed', () => {
  it('cache_drops_verdict_of_removed_key', async () => {
    const a = await keyWithKid('EdDSA', 'a');
    const b = await keyWithKid('EdDSA', 'b');
    const f = sets([a.jwk, b.jwk], [b.jwk]);
    const v = createVerifier({
      algorithms: ['EdDSA'],
      jwks: createRemoteJWKSet(URL_, { fetch: f, cooldownDuration: 0 }),
    });
    const ta = await mint(a, claims(), { kid: 'a' });
    const tb = await mint(b, claims(), { kid: 'b' });
    expect(await codeOf(() => v.verify(ta))).toBe('OK');
    expect(await codeOf(() => v.verify(tb))).toBe('OK');
    // A token naming a kid the set lacks makes it refetch now: the issuer dropped a.
    expect(await codeOf(async () => v.verify(await mint(b, claims(), { kid: 'c' })))).toBe('ERR_JWKS_NO_MATCHING_KEY');
    // a's cached result goes with it; b's stays cached (same key, carried over: no new fetch).
    const calls = f.calls;
    expect(await codeOf(() => v.verify(tb))).toBe('OK');
    expect(f.calls).toBe(calls);
    expect(await codeOf(() => v.verify(ta))).toBe('ERR_JWKS_NO_MATCHING_KEY');
  });
});
