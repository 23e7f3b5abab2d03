// Key inputs: JWK, raw secret bytes and CryptoKey, and how each is matched to an alg.
import { describe, expect, it } from 'vitest';
import {
  createEncrypter,
  createLocalJWKSet,
  createSigner,
  createVerifier,
  jweDecryption,
  type JWK,
} from '../../src/index.js';
import p256Vectors from '../vectors/wycheproof-jwe/ecdh_secp256r1_webcrypto_test.json';
import p384Vectors from '../vectors/wycheproof-jwe/ecdh_secp384r1_webcrypto_test.json';
import { b64u, claims, codeOf, codeOfSync, generate, prepareCodes, mint, nowDate, unb64u } from './jwt-mint.js';

describe('CryptoKey inputs', () => {
  for (const alg of ['RS256', 'PS384', 'ES256', 'ES512', 'EdDSA', 'HS256'] as const) {
    it(`${alg} CryptoKey verifies (through verify)`, async () => {
      const pair = await generate(alg);
      const token = await mint(pair, claims());
      const v = createVerifier({ algorithms: [alg], key: pair.publicKey, currentDate: nowDate });
      expect((await v.verify(token)).payload.sub).toBe('user-1');
    });
  }
  it('a CryptoKey bound to SHA-256 never verifies RS512', async () => {
    const pair = await generate('RS256');
    expect(codeOfSync(() => createVerifier({ algorithms: ['RS512'], key: pair.publicKey }))).toBe(
      'ERR_KEY_ALG_MISMATCH',
    );
    const rs512 = await generate('RS512');
    const token = await mint(rs512, claims());
    const v = createVerifier({ algorithms: ['RS256', 'RS512'], key: pair.publicKey, currentDate: nowDate });
    expect(await codeOf(() => v.verify(token))).toBe('ERR_KEY_ALG_MISMATCH');
  });
  it('a P-256 CryptoKey never verifies ES384', async () => {
    const pair = await generate('ES256');
    expect(codeOfSync(() => createVerifier({ algorithms: ['ES384'], key: pair.publicKey }))).toBe(
      'ERR_KEY_ALG_MISMATCH',
    );
  });
  it('a private CryptoKey is refused', async () => {
    const pair = await generate('ES256');
    expect(codeOfSync(() => createVerifier({ algorithms: ['ES256'], key: pair.privateKey }))).toBe('ERR_KEY_INVALID');
  });
});

describe('Ed25519 names', () => {
  it('alg "Ed25519" (RFC 9864) and "EdDSA" are the same scheme, each allowed separately', async () => {
    const pair = await generate('EdDSA');
    const fully = await mint({ ...pair, alg: 'Ed25519' }, claims());
    const v = createVerifier({ algorithms: ['Ed25519'], key: pair.publicJwk as JWK, currentDate: nowDate });
    expect(v.verifySync(fully).header.alg).toBe('Ed25519');
    const eddsaOnly = createVerifier({ algorithms: ['EdDSA'], key: pair.publicJwk as JWK, currentDate: nowDate });
    expect(codeOfSync(() => eddsaOnly.verifySync(fully))).toBe('ERR_JWS_ALG_NOT_ALLOWED');
    const labelled = createVerifier({
      algorithms: ['Ed25519'],
      key: { ...(pair.publicJwk as JWK), alg: 'EdDSA' },
      currentDate: nowDate,
    });
    expect(codeOfSync(() => labelled.verifySync(fully))).toBe('OK');
  });
});

describe('JWK shapes', () => {
  const cases: [string, JWK, string][] = [
    ['unknown kty', { kty: 'XYZ' }, 'ERR_KEY_INVALID'],
    ['oct without k', { kty: 'oct' }, 'ERR_KEY_INVALID'],
    ['oct with padded k', { kty: 'oct', k: 'AAAA'.repeat(11) + '==' }, 'ERR_KEY_INVALID'],
    ['RSA without e', { kty: 'RSA', n: 'AQAB' }, 'ERR_KEY_INVALID'],
    ['EC with short x', { kty: 'EC', crv: 'P-256', x: 'AAAA', y: 'AAAA' }, 'ERR_KEY_INVALID'],
    ['OKP with 31-byte x', { kty: 'OKP', crv: 'Ed25519', x: 'A'.repeat(41) + 'A' }, 'ERR_KEY_INVALID'],
    ['kid not a string', { kty: 'oct', k: 'A'.repeat(43), kid: 5 as unknown as string }, 'ERR_KEY_INVALID'],
    [
      'key_ops not an array',
      { kty: 'oct', k: 'A'.repeat(43), key_ops: 'verify' as unknown as string[] },
      'ERR_KEY_INVALID',
    ],
    ['alg not a JWS algorithm', { kty: 'oct', k: 'A'.repeat(43), alg: 'A256GCM' }, 'ERR_KEY_INVALID'],
  ];
  for (const [name, jwk, code] of cases) {
    it(name, () => {
      expect(codeOfSync(() => createVerifier({ algorithms: ['HS256', 'RS256', 'ES256', 'EdDSA'], key: jwk }))).toBe(
        code,
      );
    });
  }
  it('a private JWK verifies with its public part only', async () => {
    const pair = await generate('ES256');
    const priv = await crypto.subtle.exportKey('jwk', pair.privateKey);
    const token = await mint(pair, claims());
    const v = createVerifier({
      algorithms: ['ES256'],
      key: { ...(priv as JWK), key_ops: undefined, ext: undefined } as JWK,
      currentDate: nowDate,
    });
    expect(await codeOf(() => v.verify(token))).toBe('OK');
  });
});

describe('key_ops_duplicates_refused', () => {
  it(
    'key_ops_duplicates_refused: a JWK listing an operation ' + 'twice is refused by every key reader (RFC 7517 §4.3)',
    async () => {
      const secret = { kty: 'oct', k: `${'B'.repeat(42)}A` } as const; // 32 bytes
      const twice = ['verify', 'verify'];
      // Verification keys: the `key` option, and a key set (where a bad key is left out, so nothing matches).
      expect(
        codeOfSync(() => createVerifier({ algorithms: ['HS256'], key: { ...secret, key_ops: twice } as JWK })),
      ).toBe('ERR_KEY_INVALID');
      expect(createVerifier({ algorithms: ['HS256'], key: { ...secret, key_ops: ['verify'] } as JWK })).toBeDefined();
      const token = createSigner({ alg: 'HS256', key: { ...secret, key_ops: ['sign'] } }).signSync(
        {},
        { expiresIn: 60 },
      );
      const fromSet = createVerifier({
        algorithms: ['HS256'],
        jwks: createLocalJWKSet({ keys: [{ ...secret, key_ops: twice } as JWK] }, { allowHmac: true }),
      });
      expect(await codeOf(() => fromSet.verify(token))).not.toBe('OK');
      const goodSet = createVerifier({
        algorithms: ['HS256'],
        jwks: createLocalJWKSet({ keys: [{ ...secret, key_ops: ['verify'] } as JWK] }, { allowHmac: true }),
      });
      expect((await goodSet.verify(token)).header.alg).toBe('HS256');
      // Signing keys.
      expect(codeOfSync(() => createSigner({ alg: 'HS256', key: { ...secret, key_ops: ['sign', 'sign'] } }))).toBe(
        'ERR_KEY_INVALID',
      );
      // JWE keys, both directions.
      expect(
        codeOfSync(() =>
          createEncrypter({ alg: 'dir', enc: 'A256GCM', key: { ...secret, key_ops: ['encrypt', 'encrypt'] } }),
        ),
      ).toBe('ERR_KEY_INVALID');
      expect(createEncrypter({ alg: 'dir', enc: 'A256GCM', key: { ...secret, key_ops: ['encrypt'] } })).toBeDefined();
      expect(
        codeOfSync(() =>
          createVerifier({
            algorithms: ['HS256'],
            key: secret as JWK,
            decryption: jweDecryption({ keys: [{ ...secret, key_ops: ['decrypt', 'decrypt'] }] }),
          }),
        ),
      ).toBe('ERR_KEY_INVALID');
      // Distinct operations are fine, and a non-string is still refused.
      expect(createSigner({ alg: 'HS256', key: { ...secret, key_ops: ['sign', 'verify'] } })).toBeDefined();
      expect(
        codeOfSync(() =>
          createVerifier({ algorithms: ['HS256'], key: { ...secret, key_ops: ['verify', 1] } as unknown as JWK }),
        ),
      ).toBe('ERR_KEY_INVALID');
    },
  );
});

describe('ec_public_key_on_curve_when_made', () => {
  // Wycheproof's invalid-curve points (ECDH files, test/vectors/wycheproof-jwe/SOURCE.md)
  // and genuine keys with one bit of y changed: refused when the key is made, in every
  // backend, without asking the runtime's importer.
  const wycheproof: [string, JWK][] = [];
  for (const [crv, file] of [
    ['P-256', p256Vectors],
    ['P-384', p384Vectors],
  ] as const) {
    for (const g of file.testGroups)
      for (const t of g.tests)
        if (t.flags.includes('InvalidCurveAttack'))
          wycheproof.push([`${crv} tcId ${t.tcId}`, { ...(t.public as JWK), kid: undefined }]);
  }
  const flipped = async (alg: string): Promise<JWK> => {
    const pair = await generate(alg);
    const y = unb64u(pair.publicJwk.y!);
    y[y.length - 1]! ^= 1;
    return { ...(pair.publicJwk as JWK), y: b64u(y) };
  };

  // The curve check is one of the costly ones createVerifier leaves to the key's first use:
  // it runs before any backend sees the point, at the first verify or at prepare.
  it(
    'an off-curve `key` is refused by prepare and by every verify, before any import (P-256, P-384, P-521, ' +
      'Wycheproof invalid-curve points)',
    async () => {
      expect(wycheproof.length).toBeGreaterThanOrEqual(32);
      const refused = async (alg: 'ES256' | 'ES384' | 'ES512', key: JWK, name: string): Promise<void> => {
        const sigBytes = alg === 'ES256' ? 64 : alg === 'ES384' ? 96 : 132;
        const token =
          `${b64u(JSON.stringify({ alg }))}.` + `${b64u(JSON.stringify(claims()))}.${b64u(new Uint8Array(sigBytes))}`;
        expect(await prepareCodes(createVerifier({ algorithms: [alg], key })), name).toEqual(['ERR_KEY_INVALID']);
        const v = createVerifier({ algorithms: [alg], key, currentDate: nowDate });
        expect(await codeOf(() => v.verify(token)), name).toBe('ERR_KEY_INVALID');
        expect(await codeOf(() => v.verify(token)), name).toBe('ERR_KEY_INVALID');
      };
      for (const [alg, crv] of [
        ['ES256', 'P-256'],
        ['ES384', 'P-384'],
        ['ES512', 'P-521'],
      ] as const)
        await refused(alg, await flipped(alg), crv);
      for (const [name, key] of wycheproof) await refused(key.crv === 'P-256' ? 'ES256' : 'ES384', key, name);
    },
  );

  it('an off-curve key-set entry is left out when the set is made; the others still verify', async () => {
    const good = await generate('ES256');
    const bad = await flipped('ES256');
    const jwks = createLocalJWKSet({
      keys: [
        { ...bad, kid: 'off' },
        { ...(good.publicJwk as JWK), kid: 'on' },
      ],
    });
    const v = createVerifier({ algorithms: ['ES256'], jwks, currentDate: nowDate });
    expect(await codeOf(async () => v.verify(await mint(good, claims(), { kid: 'on' })))).toBe('OK');
    // The entry is gone: no key answers to its kid (not a key error at verify time).
    expect(await codeOf(async () => v.verify(await mint(good, claims(), { kid: 'off' })))).toBe(
      'ERR_JWKS_NO_MATCHING_KEY',
    );
  });

  it('a genuine point and its negation (x, p - y) are both accepted', async () => {
    const pair = await generate('ES256');
    const p = 2n ** 256n - 2n ** 224n + 2n ** 192n + 2n ** 96n - 1n;
    const y = BigInt(`0x${[...unb64u(pair.publicJwk.y!)].map((b) => b.toString(16).padStart(2, '0')).join('')}`);
    const neg = Uint8Array.from((p - y).toString(16).padStart(64, '0').match(/../g)!, (h) => parseInt(h, 16));
    expect(codeOfSync(() => createVerifier({ algorithms: ['ES256'], key: pair.publicJwk as JWK }))).toBe('OK');
    expect(
      codeOfSync(() => createVerifier({ algorithms: ['ES256'], key: { ...(pair.publicJwk as JWK), y: b64u(neg) } })),
    ).toBe('OK');
  });
});
