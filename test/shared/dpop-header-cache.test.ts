// verifyDpopProof keeps what a proof's header segment was found to be (parse,
// thumbprint, JWK rules) by its exact text, so a client's later proofs skip that work.
// These check the cache never changes a verdict: the signature, the claims, the
// allow-list and the key's fit to alg are checked on every call, and a header
// verified once answers the same the second time.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dpopAccessTokenHash, verifyDpopProof, type DpopProofOptions } from '../../src/index.js';
import { codeOf, generate, mint, NOW, nowDate, type KeyPair } from './jwt-mint.js';

const URL_ = 'https://api.example.com/cache/things';
const ACCESS_TOKEN = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJjYWNoZSJ9.c2ln';
const options = (extra: Partial<DpopProofOptions> = {}): DpopProofOptions => ({
  method: 'GET',
  url: URL_,
  algorithms: ['ES256', 'ES384', 'EdDSA'],
  accessToken: ACCESS_TOKEN,
  currentDate: nowDate,
  ...extra,
});

function proof(
  pair: KeyPair,
  header: Record<string, unknown> = {},
  payload: Record<string, unknown> = {},
  signer: KeyPair = pair,
): Promise<string> {
  return mint(
    signer,
    { jti: crypto.randomUUID(), htm: 'GET', htu: URL_, iat: NOW, ath: dpopAccessTokenHash(ACCESS_TOKEN), ...payload },
    { typ: 'dpop+jwt', jwk: pair.publicJwk, ...header },
  );
}

/** The header segment of a compact JWS. */
const headerOf = (jws: string) => jws.slice(0, jws.indexOf('.'));

describe('DPoP header cache', () => {
  it(
    'dpop_header_cache_rechecks_signature_and_claims: a known header with a forged signature or another request ' +
      'is refused',
    async () => {
      const a = await generate('ES256');
      const b = await generate('ES256');
      const good = await proof(a);
      expect((await verifyDpopProof(good, options())).alg).toBe('ES256');
      // Same header text (A's jwk), signed by B: the header is known, the signature is not.
      const forged = await proof(a, {}, {}, b);
      expect(headerOf(forged)).toBe(headerOf(good));
      expect(await codeOf(() => verifyDpopProof(forged, options()))).toBe('ERR_DPOP_SIGNATURE_INVALID');
      // Same header, signed by A, for another method and another token.
      expect(await codeOf(async () => verifyDpopProof(await proof(a, {}, { htm: 'POST' }), options()))).toBe(
        'ERR_DPOP_HTM_MISMATCH',
      );
      expect(await codeOf(async () => verifyDpopProof(await proof(a, {}, { ath: 'x' }), options()))).toBe(
        'ERR_DPOP_ATH_MISMATCH',
      );
    },
  );

  it(
    'dpop_header_cache_rechecks_call_options: a known header is refused by a call whose allow-list lacks its ' +
      'alg, and a key that does not fit its alg stays refused',
    async () => {
      const a = await generate('ES256');
      const p = await proof(a);
      expect(await codeOf(() => verifyDpopProof(p, options()))).toBe('OK');
      expect(await codeOf(() => verifyDpopProof(p, options({ algorithms: ['EdDSA'] })))).toBe(
        'ERR_DPOP_ALG_NOT_ALLOWED',
      );
      expect(await codeOf(() => verifyDpopProof(p, options()))).toBe('OK');
      // A P-256 key under alg ES384: the JWK is a usable key (so its header could be kept), it never fits ES384.
      const misfit = await proof(a, { alg: 'ES384' });
      for (let i = 0; i < 2; i++)
        expect(await codeOf(() => verifyDpopProof(misfit, options()))).toBe('ERR_DPOP_JWK_INVALID');
    },
  );

  it(
    'dpop_header_cache_result_frozen: the header and jwk a result shares with the cache cannot be changed by a ' +
      'caller',
    async () => {
      const a = await generate('EdDSA');
      const p = await proof(a);
      const first = await verifyDpopProof(p, options());
      expect(Object.isFrozen(first.header)).toBe(true);
      expect(Object.isFrozen(first.jwk)).toBe(true);
      const second = await verifyDpopProof(await proof(a), options());
      expect(second.jkt).toBe(first.jkt);
      expect(second.jwk).toEqual(first.jwk);
    },
  );

  it(
    'dpop_header_cache_same_verdict_twice: any header built from these parts answers the same on the first call ' +
      'and the second',
    async () => {
      const ec = await generate('ES256');
      const ed = await generate('EdDSA');
      const privateJwk = { ...ec.publicJwk, d: 'AAAA' };
      const headerArb = fc.record({
        typ: fc.constantFrom('dpop+jwt', 'DPoP+JWT', 'JWT', undefined),
        alg: fc.constantFrom('ES256', 'ES384', 'EdDSA', 'HS256', 'none'),
        jwk: fc.constantFrom(
          ec.publicJwk,
          ed.publicJwk,
          privateJwk,
          { kty: 'EC', crv: 'P-256', x: 'AA', y: 'AA' },
          undefined,
          'text',
        ),
        signer: fc.constantFrom('ec', 'ed'),
        allowed: fc.constantFrom(['ES256', 'EdDSA'], ['ES384'], ['EdDSA']),
        kid: fc.string({ maxLength: 4 }),
      });
      await fc.assert(
        fc.asyncProperty(headerArb, async (h) => {
          const signer = h.signer === 'ec' ? ec : ed;
          // Only the algorithms the signer can make sign; the header's alg is what is claimed.
          const make = () =>
            mint(
              signer,
              { jti: crypto.randomUUID(), htm: 'GET', htu: URL_, iat: NOW, ath: dpopAccessTokenHash(ACCESS_TOKEN) },
              { typ: h.typ, alg: h.alg, jwk: h.jwk, kid: h.kid },
            );
          const o = options({ algorithms: h.allowed as DpopProofOptions['algorithms'] });
          const first = await codeOf(async () => verifyDpopProof(await make(), o));
          const second = await codeOf(async () => verifyDpopProof(await make(), o));
          expect(second).toBe(first);
        }),
        { numRuns: 60 },
      );
    },
  );
});
