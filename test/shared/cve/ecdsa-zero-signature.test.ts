// "Psychic signatures", CVE-2022-21449 (Java 15-18): an ECDSA verifier that skipped the
// 0 < r, s < n check accepted r = s = 0 for any message and key. Here the forged
// signatures are r = s = 0, r or s = 0 beside the other half of a genuine signature,
// and r or s = n (the curve order, which is 0 mod n), for ES256, ES384 and ES512, on a
// key given as a JWK, as a key set entry, and to the guard. Each genuine token verifies.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createVerifier, type JWK } from '../../../src/index.js';
import { b64u, claims, codeOf, generate, mint, nowDate, unb64u } from '../jwt-mint.js';
import { ISS, guardFor, liveClaims } from './cve-kit.js';

/** Curve orders n (openssl ecparam -param_enc explicit), as hex of the JWS half-length. */
const ORDER = {
  ES256: 'ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551',
  ES384: 'ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973',
  ES512:
    '01ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff' +
    'fa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e91386409',
} as const;
type Es = keyof typeof ORDER;

function hexBytes(hex: string): Uint8Array {
  return new Uint8Array(hex.match(/../g)!.map((h) => parseInt(h, 16)));
}

/** The forged r || s pairs, built from a genuine signature's halves. */
function forgeries(alg: Es, genuine: Uint8Array): [string, Uint8Array][] {
  const half = genuine.length / 2;
  const zero = new Uint8Array(half);
  const n = hexBytes(ORDER[alg]);
  expect(n.length).toBe(half);
  const r = genuine.subarray(0, half);
  const s = genuine.subarray(half);
  const join = (a: Uint8Array, b: Uint8Array) => new Uint8Array([...a, ...b]);
  return [
    ['r = s = 0', join(zero, zero)],
    ['r = 0', join(zero, s)],
    ['s = 0', join(r, zero)],
    ['r = s = n', join(n, n)],
    ['r = n', join(n, s)],
    ['s = n', join(r, n)],
  ];
}

function withSignature(token: string, sig: Uint8Array): string {
  return `${token.slice(0, token.lastIndexOf('.'))}.${b64u(sig)}`;
}

describe('CVE-2022-21449 Java ECDSA: r = 0, s = 0 or the curve order accepted for any message', () => {
  for (const alg of ['ES256', 'ES384', 'ES512'] as const) {
    it(`ecdsa_zero_or_order_refused: ${alg}, as a key and as a key set, verify and verifySync`, async () => {
      const pair = await generate(alg);
      const jwk = { ...(pair.publicJwk as JWK), kid: 'e1' };
      const single = createVerifier({ algorithms: [alg], key: jwk, currentDate: nowDate, cache: false });
      const set = createVerifier({ algorithms: [alg], jwks: { keys: [jwk] }, currentDate: nowDate, cache: false });
      const genuine = await mint(pair, claims(), { kid: 'e1' });
      expect((await single.verify(genuine)).payload.sub).toBe('user-1');
      expect((await set.verify(genuine)).payload.sub).toBe('user-1');
      for (const [name, sig] of forgeries(alg, unb64u(genuine.split('.')[2]!))) {
        const forged = withSignature(genuine, sig);
        expect(await codeOf(() => single.verify(forged)), name).toBe('ERR_JWS_SIGNATURE_INVALID');
        expect(await codeOf(() => set.verify(forged)), name).toBe('ERR_JWS_SIGNATURE_INVALID');
        // verifySync answers the same where the runtime verifies ECDSA synchronously, else asks for verify.
        const sync = await codeOf(() => single.verifySync(forged));
        expect(['ERR_JWS_SIGNATURE_INVALID', 'ERR_ASYNC_REQUIRED'], name).toContain(sync);
      }
    });
  }

  it('ecdsa_zero_half_never_verifies: r = 0 or s = 0 beside any other half (fast-check)', async () => {
    const pair = await generate('ES256');
    const v = createVerifier({ algorithms: ['ES256'], key: pair.publicJwk as JWK, currentDate: nowDate, cache: false });
    const genuine = await mint(pair, claims());
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.boolean(), async (other, zeroFirst) => {
        const zero = new Uint8Array(32);
        const sig = zeroFirst ? new Uint8Array([...zero, ...other]) : new Uint8Array([...other, ...zero]);
        expect(await codeOf(() => v.verify(withSignature(genuine, sig)))).toBe('ERR_JWS_SIGNATURE_INVALID');
      }),
      { numRuns: 100 },
    );
  });

  it('guard_refuses_psychic_signature: an ES256 issuer answers 401 to r = s = 0 and r = s = n', async () => {
    const pair = await generate('ES256');
    const jwk = { ...(pair.publicJwk as JWK), kid: 'e1' };
    const issuer = { issuer: ISS, audience: 'api', algorithms: ['ES256'], jwks: { keys: [jwk] } };
    const g = await guardFor({ issuers: [issuer] });
    const genuine = await mint(pair, liveClaims(ISS), { kid: 'e1' });
    expect((await g.send(genuine)).status).toBe(200);
    for (const [, sig] of forgeries('ES256', unb64u(genuine.split('.')[2]!))) {
      expect((await g.send(withSignature(genuine, sig))).status).toBe(401);
    }
    expect(g.originCalls()).toBe(1);
  });
});
