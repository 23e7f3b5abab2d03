// The algorithm lookups edgejwt/hmac uses without the full table (src/alg-base.ts) agree
// with the table (src/algorithms.ts): the same names, the same HMAC rows, the same JWK
// `alg` rule, so both entries accept and refuse the same algorithms.
import { describe, expect, it } from 'vitest';
import { hmacSpec, isAlgorithm, jwkAlgAllows } from '../../src/alg-base.js';
import { HASH_BYTES, SUPPORTED_ALGORITHMS, algSpec } from '../../src/algorithms.js';

const ODD = ['none', 'None', 'hs256', 'HS256 ', '', '__proto__', 'constructor', 'toString', 'HS1024', 'EdDSA\u0000'];

describe('alg_lookups_match_the_table', () => {
  it('isAlgorithm names exactly the table, and hmacSpec gives exactly its HMAC rows', () => {
    for (const a of [...SUPPORTED_ALGORITHMS, ...ODD]) {
      expect(isAlgorithm(a), a).toBe(algSpec(a) !== undefined);
      expect(hmacSpec(a), a).toBe(algSpec(a)?.engine === 'hmac' ? algSpec(a) : undefined);
    }
    expect(SUPPORTED_ALGORITHMS.filter((a) => hmacSpec(a) !== undefined)).toEqual(['HS256', 'HS384', 'HS512']);
    // RFC 7518 §3.2: the tag is the whole MAC and the key at least as long; only HS* and EdDSA in the core.
    for (const a of SUPPORTED_ALGORITHMS) {
      const s = algSpec(a)!;
      expect([s.alg, s.minKeyBytes, s.sigLength === 0 ? 0 : s.sigLength, s.wasm]).toEqual(
        s.engine === 'hmac'
          ? [a, HASH_BYTES[s.hash], HASH_BYTES[s.hash], true]
          : [a, 0, s.sigLength, s.engine === 'ed25519'],
      );
      expect(Object.isFrozen(s)).toBe(true);
    }
  });

  it('jwkAlgAllows: a JWK alg allows its own algorithm, and EdDSA and Ed25519 allow each other', () => {
    for (const jwkAlg of [undefined, ...SUPPORTED_ALGORITHMS, ...ODD]) {
      for (const a of SUPPORTED_ALGORITHMS) {
        const s = algSpec(a)!;
        const other = jwkAlg === undefined ? undefined : algSpec(jwkAlg);
        const expected =
          jwkAlg === undefined || jwkAlg === a || (other?.engine === 'ed25519' && s.engine === 'ed25519');
        expect(jwkAlgAllows(jwkAlg, s), `${jwkAlg} for ${a}`).toBe(expected);
      }
    }
  });
});
