// Differential signing under the node condition: random payloads (fast-check) signed
// by edgejwt's signSync are checked by node:crypto's verify on the signing input,
// by edgejwt's strict verifier, and (every 25th) by jose; HMAC and Ed25519 signatures,
// being deterministic, must equal node:crypto's byte for byte.
// Cases per algorithm: EDGEJWT_SIGN_CASES (default 300, so the suite stays quick on a
// small CI machine; the full run is EDGEJWT_SIGN_CASES=5000).
import { Buffer } from 'node:buffer';
import {
  createHmac,
  createSecretKey,
  generateKeyPairSync,
  sign as nodeSign,
  verify as nodeVerify,
  type KeyObject,
} from 'node:crypto';
import fc from 'fast-check';
import * as jose from 'jose';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_ALGORITHMS, createSigner, type Algorithm, createVerifier, type JWK } from '../../src/index.js';

const CASES = Number(process.env.EDGEJWT_SIGN_CASES ?? 300);
const HASH: Record<string, string> = { '256': 'sha256', '384': 'sha384', '512': 'sha512' };
const CURVE: Record<string, string> = { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' };

interface Keys {
  sign: Uint8Array | KeyObject;
  verify: Uint8Array | KeyObject;
  publicJwk?: JWK;
}

function keysFor(alg: string): Keys {
  if (alg.startsWith('HS')) {
    const secret = new Uint8Array(Number(alg.slice(2)) / 8 + 5).map((_, i) => (i * 37 + 11) & 0xff);
    return { sign: secret, verify: secret };
  }
  const pair =
    alg === 'EdDSA' || alg === 'Ed25519'
      ? generateKeyPairSync('ed25519')
      : alg.startsWith('ES')
        ? generateKeyPairSync('ec', { namedCurve: CURVE[alg]! })
        : generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { sign: pair.privateKey, verify: pair.publicKey, publicJwk: pair.publicKey.export({ format: 'jwk' }) as JWK };
}

function nodeVerifyArgs(alg: string, key: KeyObject) {
  const bits = alg.slice(2);
  if (alg.startsWith('ES')) return { digest: HASH[bits]!, key: { key, dsaEncoding: 'ieee-p1363' as const } };
  if (alg.startsWith('PS')) return { digest: HASH[bits]!, key: { key, padding: 6, saltLength: Number(bits) / 8 } };
  if (alg.startsWith('RS')) return { digest: HASH[bits]!, key };
  return { digest: null, key };
}

// Claims without time members (those must be numbers; the property test of that rule is in the shared suite).
const payloads = fc.dictionary(
  fc.string({ unit: 'grapheme', maxLength: 12 }).filter((k) => !['exp', 'nbf', 'iat', '__proto__'].includes(k)),
  fc.jsonValue({ maxDepth: 3 }),
  { maxKeys: 8 },
);

describe(`signSync differential against node:crypto and jose (${CASES} random payloads per algorithm)`, () => {
  for (const alg of SUPPORTED_ALGORITHMS as readonly Algorithm[]) {
    it(`${alg}`, async () => {
      const keys = keysFor(alg);
      const ours = createSigner({ alg, key: keys.sign });
      const strict = createVerifier({
        algorithms: [alg],
        key: keys.publicJwk ?? (keys.verify as Uint8Array),
        requireExp: false,
        cache: false,
      });
      const samples = fc.sample(payloads, { numRuns: CASES, seed: 0x5eed + alg.length });
      for (let i = 0; i < samples.length; i++) {
        const payload = samples[i]!;
        const token = ours.signSync(payload, { iat: 1_800_000_000 + i, expiresIn: 60 });
        const dot = token.lastIndexOf('.');
        const input = Buffer.from(token.slice(0, dot), 'latin1');
        const sig = Buffer.from(token.slice(dot + 1), 'base64url');
        if (alg.startsWith('HS')) {
          expect(
            sig.equals(
              createHmac(HASH[alg.slice(2)]!, keys.sign as Uint8Array)
                .update(input)
                .digest(),
            ),
          ).toBe(true);
        } else {
          const { digest, key } = nodeVerifyArgs(alg, keys.verify as KeyObject);
          expect(nodeVerify(digest, input, key, sig)).toBe(true);
          if (digest === null) expect(sig.equals(nodeSign(null, input, keys.sign as KeyObject))).toBe(true);
        }
        const expected = JSON.parse(JSON.stringify({ ...payload, iat: 1_800_000_000 + i, exp: 1_800_000_060 + i }));
        expect(strict.verifySync(token).payload).toEqual(expected);
        if (i % 25 === 0) {
          const j = await jose.jwtVerify(token, keys.verify, {
            algorithms: [alg],
            currentDate: new Date(1_800_000_000_000),
          });
          expect(j.payload).toEqual(expected);
        }
      }
    });
  }
});

describe('node-only key inputs: PEM strings and KeyObjects, checked as for verify', () => {
  it('a private KeyObject and its PEM sign; the public one is refused', () => {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const v = createVerifier({
      algorithms: ['ES256'],
      key: pair.publicKey.export({ format: 'jwk' }) as JWK,
      requireExp: false,
    });
    const pem = pair.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    expect(v.verifySync(createSigner({ alg: 'ES256', key: pair.privateKey }).signSync({ a: 1 })).payload.a).toBe(1);
    expect(v.verifySync(createSigner({ alg: 'ES256', key: pem }).signSync({ a: 2 })).payload.a).toBe(2);
    expect(() => createSigner({ alg: 'ES256', key: pair.publicKey })).toThrow(
      expect.objectContaining({ code: 'ERR_KEY_INVALID' }),
    );
    expect(() => createSigner({ alg: 'ES384', key: pair.privateKey })).toThrow(
      expect.objectContaining({ code: 'ERR_KEY_ALG_MISMATCH' }),
    );
    expect(() => createSigner({ alg: 'RS256', key: pem })).toThrow(
      expect.objectContaining({ code: 'ERR_KEY_ALG_MISMATCH' }),
    );
    expect(() => createSigner({ alg: 'ES256', key: 'not a pem' })).toThrow(
      expect.objectContaining({ code: 'ERR_KEY_INVALID' }),
    );
  });

  it('RSA KeyObjects below 2048 bits: ERR_KEY_TOO_SHORT', () => {
    const pair = generateKeyPairSync('rsa', { modulusLength: 1024 });
    expect(() => createSigner({ alg: 'PS256', key: pair.privateKey })).toThrow(
      expect.objectContaining({ code: 'ERR_KEY_TOO_SHORT' }),
    );
  });

  it('secret KeyObjects sign HS* (through node:crypto) and are held to the minimum length', () => {
    const secret = new Uint8Array(48).fill(9);
    const token = createSigner({ alg: 'HS384', key: createSecretKey(secret) }).signSync({ a: 1 });
    expect(createVerifier({ algorithms: ['HS384'], key: secret, requireExp: false }).verifySync(token).payload.a).toBe(
      1,
    );
    expect(() => createSigner({ alg: 'HS384', key: createSecretKey(new Uint8Array(47)) })).toThrow(
      expect.objectContaining({ code: 'ERR_KEY_TOO_SHORT' }),
    );
  });
});
