// Verify-cache key confusion, fast-jwt pull request 587 (GHSA-rp9m-7r4c-75qg): a cache
// keyed on something other than the whole token (a custom cacheKeyBuilder of aud, or
// iss + aud) served one token's claims for another. edgejwt takes no key builder; its
// per-verifier cache indexes by the token's last characters but serves a hit only on
// exact equality of the whole token (src/cache.ts), and the guard's KV tier keys on the
// policy, the proving key and SHA-256 of the whole token (src/worker/verify-cache.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createVerifier } from '../../../src/index.js';
import { b64u, claims, codeOf, codeOfSync, nowDate } from '../jwt-mint.js';
import { AUD, CACHE_KEY, HS_ISS, MemoryKV, guardFor, liveClaims, macToken } from './cve-kit.js';

const secret = crypto.getRandomValues(new Uint8Array(32));

/** `payload` with `donor`'s header and signature: a token whose tail equals the donor's. */
function graft(donor: string, payload: Record<string, unknown>): string {
  const [h, , s] = donor.split('.') as [string, string, string];
  return `${h}.${b64u(JSON.stringify(payload))}.${s}`;
}

describe("fast-jwt #587 (GHSA-rp9m-7r4c-75qg): a cache keyed on less than the token served another's claims", () => {
  it('no_cache_key_builder: a key builder, at the top or in cache, is an unknown option', () => {
    const builder = (t: string) => t.slice(-10);
    const base = { algorithms: ['HS256'] as const, key: secret };
    const nested = { ...base, cache: { max: 10, cacheKeyBuilder: builder } };
    for (const options of [{ ...base, cacheKeyBuilder: builder }, nested]) {
      expect(codeOfSync(() => createVerifier(options as never))).toBe('ERR_OPTIONS_INVALID');
    }
  });

  it("same_tail_never_served: a cached token's signature under another payload is refused, not served", async () => {
    const v = createVerifier({ algorithms: ['HS256'], key: secret, currentDate: nowDate });
    const alice = await macToken(secret, {}, claims({ sub: 'alice' }));
    expect((await v.verify(alice)).payload.sub).toBe('alice');
    expect((await v.verify(alice)).payload.sub).toBe('alice'); // now a cache hit
    const mallory = graft(alice, claims({ sub: 'mallory', role: 'admin' }));
    expect(mallory.slice(-10)).toBe(alice.slice(-10));
    expect(await codeOf(() => v.verify(mallory))).toBe('ERR_JWS_SIGNATURE_INVALID');
    expect(codeOfSync(() => v.verifySync(mallory))).toBe('ERR_JWS_SIGNATURE_INVALID');
  });

  it('each_token_its_own_claims: tokens sharing iss, aud and iat, in any order, get their own sub', async () => {
    const v = createVerifier({ algorithms: ['HS256'], key: secret, currentDate: nowDate, cache: { max: 8, ttl: 60 } });
    const subs = fc.uniqueArray(fc.stringMatching(/^[a-z]{1,8}$/), { minLength: 2, maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(subs, fc.array(fc.nat(), { minLength: 1, maxLength: 30 }), async (names, order) => {
        const tokens = await Promise.all(names.map((sub) => macToken(secret, {}, claims({ sub }))));
        for (const i of order) {
          const k = i % names.length;
          expect((await v.verify(tokens[k]!)).payload.sub).toBe(names[k]);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('guard_caches_never_cross_tokens: L1 and the KV tier refuse the graft, serve each user their claims', async () => {
    const kv = new MemoryKV();
    const config = {
      issuers: [{ issuer: HS_ISS, audience: AUD, algorithms: ['HS256'], secretBinding: 'HS_KEY' }],
      cache: { verify: 'all', verifyAdmission: 'always' },
    };
    const env = { HS_KEY: b64u(secret), CACHE_KEY };
    const first = await guardFor(config, { kv, env });
    const alice = await macToken(secret, {}, liveClaims(HS_ISS, { sub: 'alice' }));
    const bob = await macToken(secret, {}, liveClaims(HS_ISS, { sub: 'bob' }));
    expect(await (await first.send(alice)).json()).toEqual({ sub: 'alice' });
    expect(kv.map.size).toBeGreaterThan(0); // the KV tier holds alice's verdict
    const forged = graft(alice, liveClaims(HS_ISS, { sub: 'mallory' }));
    expect((await first.send(forged)).status).toBe(401);
    // A second guard (another isolate) over the same KV: L1 empty, L2 warm.
    const second = await guardFor(config, { kv, env });
    expect((await second.send(forged)).status).toBe(401);
    expect(await (await second.send(alice)).json()).toEqual({ sub: 'alice' });
    expect(await (await second.send(bob)).json()).toEqual({ sub: 'bob' });
  });
});
