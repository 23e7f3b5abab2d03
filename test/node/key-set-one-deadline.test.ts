// One deadline over a key-set lookup (issue 35, "none waits longer than the deadline"): the store
// tiers, the claim of the data centre's fetch, the wait for another isolate's and the fetch itself all
// run within timeoutDuration, so a verify that must leave memory waits at most that long. The clock is
// faked: a store read "takes" 400 ms and the provider hangs, and the test reads when the verify settled.
// In node/, not shared/: the bundled corpus's test shim has no fake timers.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRemoteJWKSet, createVerifier, type JWKSStore, type StoredJWKS } from '../../src/index.js';
import { claims, mint, nowDate } from '../shared/jwt-mint.js';
import { later, timed } from './faked-clock.js';
import { URL_, keyWithKid } from '../shared/remote-jwks-fakes.js';

const TIMEOUT = 600;
/** The deadline, plus one step of the faked clock. */
const WITHIN = TIMEOUT + 10;

/** A provider that never answers (and ignores the abort); counts requests. */
function hungProvider(): typeof fetch & { calls: number } {
  const f = (() => (f.calls++, new Promise<Response>(() => undefined))) as unknown as typeof fetch & { calls: number };
  f.calls = 0;
  return f;
}

/** A store whose reads take 400 ms and find nothing (`entry` when given); attempts as `attempts` says. */
function slowStore(attempts?: Pick<JWKSStore, 'getAttempt' | 'putAttempt'>, entry?: StoredJWKS): JWKSStore {
  return { get: () => later(400, entry), put: () => undefined, ...attempts };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('one deadline over a key-set lookup', () => {
  const cases: [string, () => JWKSStore, number][] = [
    // This isolate claims the data centre's fetch (the claim is quick) and fetches with what is left.
    ['claimant', () => slowStore({ getAttempt: () => undefined, putAttempt: () => undefined }), 1],
    // Another isolate's fetch is in flight: this one waits for what it stores.
    [
      'waiter',
      () => slowStore({ getAttempt: () => ({ at: Date.now(), id: 'other' }), putAttempt: () => undefined }),
      0,
    ],
    // No tier keeps attempts (KV only, Node): the tiers, then our own fetch.
    ['no_attempt_tier', () => slowStore(), 1],
  ];
  for (const [path, store, fetches] of cases) {
    it(`key_set_lookup_waits_at_most_timeout_duration_overall_${path}`, async () => {
      const a = await keyWithKid('EdDSA', 'a');
      const token = await mint(a, claims(), { kid: 'a' });
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      const provider = hungProvider();
      const jwks = createRemoteJWKSet(URL_, {
        fetch: provider,
        store: store(),
        timeoutDuration: TIMEOUT,
        storeTimeoutDuration: 500,
      });
      const v = createVerifier({ algorithms: ['EdDSA'], jwks, currentDate: nowDate, cache: false });
      const { ms, code } = await timed(() => v.verify(token));
      expect(code).toBe('ERR_JWKS_TIMEOUT');
      expect(ms).toBeLessThanOrEqual(WITHIN);
      expect(provider.calls).toBe(fetches);
    });
  }

  it('key_set_lookup_waits_at_most_timeout_duration_overall_for_a_kid_the_stored_set_lacks', async () => {
    const a = await keyWithKid('EdDSA', 'a');
    const token = await mint(a, claims(), { kid: 'rotated' });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const stored = { jwks: { keys: [a.jwk] }, fetchedAt: Date.now(), freshUntil: Date.now() + 600_000 };
    // The stored set lacks the kid: the tiers are read again for a newer set, then the provider is asked.
    const provider = hungProvider();
    const jwks = createRemoteJWKSet(URL_, {
      fetch: provider,
      store: slowStore(undefined, stored),
      timeoutDuration: TIMEOUT,
      storeTimeoutDuration: 500,
    });
    const v = createVerifier({ algorithms: ['EdDSA'], jwks, currentDate: nowDate, cache: false });
    const { ms, code } = await timed(() => v.verify(token));
    expect(code).toBe('ERR_JWKS_TIMEOUT');
    expect(ms).toBeLessThanOrEqual(WITHIN);
  });

  it('reload_waits_at_most_timeout_duration', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const jwks = createRemoteJWKSet(URL_, { fetch: hungProvider(), timeoutDuration: TIMEOUT });
    const { ms, code } = await timed(() => jwks.reload());
    expect(code).toBe('ERR_JWKS_TIMEOUT');
    expect(ms).toBeLessThanOrEqual(WITHIN);
  });
});
