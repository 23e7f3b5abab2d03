// Key-set refetch floods, PyJWT CVE-2026-48524: PyJWKClient refetched the JWKS for every
// token whose (unverified) `kid` it did not know, with no cooldown, and a failed fetch
// emptied its cache. Here a fake issuer counts requests while tokens with random unknown
// kids arrive: edgejwt refetches at most once per cooldown (src/keys/remote.ts), one fetch
// in flight at a time, and a failed refetch keeps the keys it had.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRemoteJWKSet, createVerifier, type JWK } from '../../../src/index.js';
import { claims, codeOf, generate, mint, nowDate, type KeyPair } from '../jwt-mint.js';
import { ISS, keySetGuard, liveClaims } from './cve-kit.js';

const COOLDOWN = 30_000;

interface Issuer {
  fetch: typeof fetch;
  calls(): number;
  /** Make every later request fail (the issuer rate-limits or is down). */
  fail(): void;
}

function fakeIssuer(keys: JWK[]): Issuer {
  let calls = 0;
  let down = false;
  const f = (async () => {
    calls++;
    if (down) return new Response('rate limited', { status: 429 });
    return Response.json({ keys }, { headers: { 'cache-control': 'max-age=600' } });
  }) as unknown as typeof fetch;
  return { fetch: f, calls: () => calls, fail: () => void (down = true) };
}

interface Setup {
  pair: KeyPair;
  issuer: Issuer;
  clock: { ms: number };
  verify: (t: string) => Promise<string>;
}

async function setup(): Promise<Setup> {
  const pair = await generate('ES256');
  const issuer = fakeIssuer([{ ...(pair.publicJwk as JWK), kid: 'k1' }]);
  const clock = { ms: nowDate.getTime() };
  const options = { fetch: issuer.fetch, now: () => clock.ms, cooldownDuration: COOLDOWN };
  const jwks = createRemoteJWKSet('https://issuer.example/jwks', options);
  const v = createVerifier({ algorithms: ['ES256'], jwks, currentDate: nowDate, cache: false });
  return { pair, issuer, clock, verify: (t) => codeOf(() => v.verify(t)) };
}

describe('CVE-2026-48524 PyJWT: every unknown kid forced a JWKS fetch, and a failed fetch emptied the cache', () => {
  it('unknown_kids_refetch_once_per_cooldown: 500 random kids in the cooldown, no fetch; after it, one', async () => {
    const { pair, issuer, clock, verify } = await setup();
    expect(await verify(await mint(pair, claims(), { kid: 'k1' }))).toBe('OK');
    expect(issuer.calls()).toBe(1);
    for (let i = 0; i < 500; i++) {
      expect(await verify(await mint(pair, claims(), { kid: crypto.randomUUID() }))).toBe('ERR_JWKS_NO_MATCHING_KEY');
    }
    expect(issuer.calls()).toBe(1);
    clock.ms += COOLDOWN;
    for (let i = 0; i < 500; i++) await verify(await mint(pair, claims(), { kid: crypto.randomUUID() }));
    expect(issuer.calls()).toBe(2);
  });

  it('concurrent_unknown_kids_single_flight: 200 at once, past the cooldown, share one refetch', async () => {
    const { pair, issuer, clock, verify } = await setup();
    expect(await verify(await mint(pair, claims(), { kid: 'k1' }))).toBe('OK');
    clock.ms += COOLDOWN;
    const unknown = () => mint(pair, claims(), { kid: crypto.randomUUID() });
    const tokens = await Promise.all(Array.from({ length: 200 }, unknown));
    const codes = await Promise.all(tokens.map(verify));
    expect(new Set(codes)).toEqual(new Set(['ERR_JWKS_NO_MATCHING_KEY']));
    expect(issuer.calls()).toBe(2);
  });

  it('failed_refetch_keeps_the_keys: the issuer fails after the first fetch; known kids still verify', async () => {
    const { pair, issuer, clock, verify } = await setup();
    expect(await verify(await mint(pair, claims(), { kid: 'k1' }))).toBe('OK');
    issuer.fail();
    for (let round = 0; round < 3; round++) {
      expect(await verify(await mint(pair, claims(), { kid: crypto.randomUUID() }))).not.toBe('OK');
      expect(await verify(await mint(pair, claims(), { kid: 'k1' }))).toBe('OK');
      clock.ms += COOLDOWN;
    }
    // The first fetch, then one failed refetch per cooldown elapsed (two), never one per token.
    expect(issuer.calls()).toBe(3);
  });

  it('refetches_bounded_by_elapsed_cooldowns: any run of unknown kids over any spacing (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 2 * COOLDOWN }), { maxLength: 40 }), async (gaps) => {
        const { pair, issuer, clock, verify } = await setup();
        await verify(await mint(pair, claims(), { kid: 'k1' }));
        const start = clock.ms;
        for (const gap of gaps) {
          clock.ms += gap;
          await verify(await mint(pair, claims(), { kid: crypto.randomUUID() }));
        }
        // At most one refetch per full cooldown elapsed since the first fetch.
        expect(issuer.calls() - 1).toBeLessThanOrEqual(Math.floor((clock.ms - start) / COOLDOWN));
      }),
      { numRuns: 30 },
    );
  });

  it('guard_unknown_kids_bounded: 100 requests with random kids make at most one refetch', async () => {
    const pair = await generate('ES256');
    const jwk = { ...(pair.publicJwk as JWK), kid: 'k1' };
    const g = await keySetGuard('ES256', () => ({ keys: [jwk] }));
    expect((await g.send(await mint(pair, liveClaims(ISS), { kid: 'k1' }))).status).toBe(200);
    const first = g.jwksFetches();
    for (let i = 0; i < 100; i++) {
      expect((await g.send(await mint(pair, liveClaims(ISS), { kid: crypto.randomUUID() }))).status).toBe(401);
    }
    expect(g.jwksFetches() - first).toBeLessThanOrEqual(1);
  });
});
