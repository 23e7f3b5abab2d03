// Encrypted tokens end to end: createEncrypter → createVerifier({ decryption }) for
// every alg × enc, direct claims and nested JWTs (both layers checked), interop with
// jose both ways, and each refusal with its code.
import { jweBackend } from '#crypto-backend';
import * as jose from 'jose';
import { describe, expect, it } from 'vitest';
import { createEncrypter, createSigner, createVerifier, jweDecryption, type EncryptionJWK } from '../../src/index.js';
import p256Vectors from '../vectors/wycheproof-jwe/ecdh_secp256r1_webcrypto_test.json';
import p384Vectors from '../vectors/wycheproof-jwe/ecdh_secp384r1_webcrypto_test.json';
import { codeOf, codeOfSync } from './jwt-mint.js';

const ENCS = { A128GCM: 16, A256GCM: 32, 'A128CBC-HS256': 32, 'A256CBC-HS512': 64 } as const;
type Enc = keyof typeof ENCS;
const enc8 = new TextEncoder();

function b64u(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

async function pairJwks(
  params: RsaHashedKeyGenParams | EcKeyGenParams | Algorithm,
  usages: KeyUsage[],
): Promise<{ pub: EncryptionJWK; priv: EncryptionJWK }> {
  const k = (await crypto.subtle.generateKey(params as EcKeyGenParams, true, usages)) as CryptoKeyPair;
  const clean = async (key: CryptoKey) => {
    const {
      key_ops: _o,
      ext: _e,
      alg: _a,
      ...jwk
    } = (await crypto.subtle.exportKey('jwk', key)) as EncryptionJWK & { ext?: boolean };
    return jwk as EncryptionJWK;
  };
  return { pub: await clean(k.publicKey), priv: await clean(k.privateKey) };
}

const rsa = pairJwks(
  { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
  ['encrypt', 'decrypt'],
);
const curves = {
  'P-256': pairJwks({ name: 'ECDH', namedCurve: 'P-256' }, ['deriveBits']),
  'P-384': pairJwks({ name: 'ECDH', namedCurve: 'P-384' }, ['deriveBits']),
  X25519: pairJwks({ name: 'X25519' }, ['deriveBits']),
};
const signingSecret = crypto.getRandomValues(new Uint8Array(32));
const signer = createSigner({ alg: 'HS256', key: signingSecret });

async function recipients(
  enc: Enc,
): Promise<[string, string, EncryptionJWK | Uint8Array, EncryptionJWK | Uint8Array][]> {
  const dirKey = crypto.getRandomValues(new Uint8Array(ENCS[enc]));
  const kw128 = crypto.getRandomValues(new Uint8Array(16));
  const kw256 = crypto.getRandomValues(new Uint8Array(32));
  const r = await rsa;
  const list: [string, string, EncryptionJWK | Uint8Array, EncryptionJWK | Uint8Array][] = [
    ['dir', '', dirKey, dirKey],
    ['A128KW', '', kw128, kw128],
    ['A256KW', '', { kty: 'oct', k: b64u(kw256) }, { kty: 'oct', k: b64u(kw256) }],
    ['RSA-OAEP-256', '', r.pub, r.priv],
  ];
  for (const crv of ['P-256', 'P-384', 'X25519'] as const) {
    const c = await curves[crv];
    list.push(['ECDH-ES', crv, c.pub, c.priv], ['ECDH-ES+A256KW', crv, c.pub, c.priv]);
  }
  return list;
}

describe('createEncrypter → createVerifier({ decryption }), every alg × enc', () => {
  for (const enc of Object.keys(ENCS) as Enc[]) {
    it(`${enc}: nested JWTs for every alg, direct claims for the shared-key algs; jose agrees both ways`, async () => {
      for (const [alg, crv, encKey, decKey] of await recipients(enc)) {
        const label = `${alg} ${crv} ${enc}`;
        const v = createVerifier({
          algorithms: ['HS256'],
          key: signingSecret,
          issuer: 'https://i.example',
          decryption: jweDecryption({ keys: [decKey] }),
        });
        const e = createEncrypter({ alg, enc, key: encKey, header: { kid: 'r1' } });
        const jws = signer.signSync({ sub: 'nested' }, { expiresIn: 60, issuer: 'https://i.example' });
        const nested = await e.encrypt(jws);
        const result = await v.verify(nested);
        expect(result.payload.sub, label).toBe('nested');
        expect(result.header.alg, label).toBe('HS256');
        const symmetric = alg === 'dir' || (alg.endsWith('KW') && !alg.startsWith('ECDH'));
        const claimsSet = { sub: 'direct', iss: 'https://i.example', exp: Math.floor(Date.now() / 1000) + 60 };
        if (symmetric) {
          const d = await v.verify(await e.encrypt(claimsSet));
          expect(d.payload.sub, label).toBe('direct');
          expect(d.header, label).toMatchObject({ alg, enc, kid: 'r1' });
        } else {
          // Neither side deals in unsigned claims under a public key: the encrypter refuses to make them,
          // and the verifier refuses jose's.
          expect(await codeOf(() => e.encrypt(claimsSet)), label).toBe('ERR_JWE_NESTED_REQUIRED');
          const pub = await jose.importJWK({ ...(encKey as EncryptionJWK), alg } as jose.JWK, alg);
          const joseDirect = await new jose.CompactEncrypt(enc8.encode(JSON.stringify(claimsSet)))
            .setProtectedHeader({ alg, enc })
            .encrypt(pub);
          expect(await codeOf(() => v.verify(joseDirect)), label).toBe('ERR_JWE_NESTED_REQUIRED');
        }
        // jose decrypts ours, and we decrypt jose's.
        const joseDec =
          decKey instanceof Uint8Array ? decKey : await jose.importJWK({ ...decKey, alg } as jose.JWK, alg);
        expect(new TextDecoder().decode((await jose.compactDecrypt(nested, joseDec)).plaintext), label).toBe(jws);
        const joseEnc =
          encKey instanceof Uint8Array ? encKey : await jose.importJWK({ ...encKey, alg } as jose.JWK, alg);
        const theirs = await new jose.CompactEncrypt(enc8.encode(jws))
          .setProtectedHeader({ alg, enc, cty: 'JWT' })
          .encrypt(joseEnc);
        expect((await v.verify(theirs)).payload.sub, label).toBe('nested');
      }
    });
  }
});

describe('JWE refusals, each with its code', () => {
  const key = crypto.getRandomValues(new Uint8Array(32));
  const verifier = (extra: Record<string, unknown> = {}) =>
    createVerifier({
      algorithms: ['HS256'],
      key: signingSecret,
      requireExp: false,
      decryption: jweDecryption({ keys: [key], ...extra }),
    });
  const header = (h: Record<string, unknown>) => b64u(enc8.encode(JSON.stringify(h)));
  const fake = (h: Record<string, unknown>, ek = '') =>
    `${header(h)}.${ek}.AAAAAAAAAAAAAAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA`;

  it('RSA1_5 is refused (padding oracle): ERR_JWE_ALG_NOT_ALLOWED', async () => {
    expect(await codeOf(() => verifier().verify(fake({ alg: 'RSA1_5', enc: 'A128GCM' }, 'AAAA')))).toBe(
      'ERR_JWE_ALG_NOT_ALLOWED',
    );
    expect(codeOfSync(() => createEncrypter({ alg: 'RSA1_5', enc: 'A128GCM', key }))).toBe('ERR_JWE_ALG_NOT_ALLOWED');
  });

  it('PBES2-* is refused before any key derivation (unbounded p2c): ERR_JWE_ALG_NOT_ALLOWED', async () => {
    const h = { alg: 'PBES2-HS256+A128KW', enc: 'A128GCM', p2s: 'AAAAAAAAAAA', p2c: 2 ** 31 };
    expect(await codeOf(() => verifier().verify(fake(h, 'AAAA')))).toBe('ERR_JWE_ALG_NOT_ALLOWED');
  });

  it('zip is refused (no inflation, no compression oracle): ERR_JWE_ZIP_UNSUPPORTED', async () => {
    expect(await codeOf(() => verifier().verify(fake({ alg: 'dir', enc: 'A256GCM', zip: 'DEF' })))).toBe(
      'ERR_JWE_ZIP_UNSUPPORTED',
    );
  });

  it('an unknown crit is refused: ERR_JWE_CRIT_UNSUPPORTED', async () => {
    expect(await codeOf(() => verifier().verify(fake({ alg: 'dir', enc: 'A256GCM', crit: ['x'], x: 1 })))).toBe(
      'ERR_JWE_CRIT_UNSUPPORTED',
    );
  });

  it('alg and enc outside the allow-list are refused: ERR_JWE_ALG_NOT_ALLOWED', async () => {
    const v = verifier({ algorithms: ['A256KW'], encryptions: ['A256GCM'] });
    expect(await codeOf(() => v.verify(fake({ alg: 'dir', enc: 'A256GCM' })))).toBe('ERR_JWE_ALG_NOT_ALLOWED');
    expect(await codeOf(() => v.verify(fake({ alg: 'A256KW', enc: 'A128GCM' }, 'AAAA')))).toBe(
      'ERR_JWE_ALG_NOT_ALLOWED',
    );
    expect(await codeOf(() => v.verify(fake({ alg: 'none', enc: 'A256GCM' })))).toBe('ERR_JWE_ALG_NOT_ALLOWED');
    expect(await codeOf(() => v.verify(fake({ alg: 'A192KW', enc: 'A192GCM' })))).toBe('ERR_JWE_ALG_NOT_ALLOWED');
    expect(codeOfSync(() => verifier({ algorithms: ['RSA1_5'] }))).toBe('ERR_OPTIONS_INVALID');
    expect(codeOfSync(() => verifier({ extra: 1 }))).toBe('ERR_OPTIONS_INVALID');
    // The decryption option itself is allow-listed with every other option (VERIFIER_OPTION_NAMES, src/verify-path.ts).
    expect(
      codeOfSync(() =>
        createVerifier({ algorithms: ['HS256'], key: signingSecret, decryptoin: { keys: [key] } } as never),
      ),
    ).toBe('ERR_OPTIONS_INVALID');
    let setting: unknown;
    try {
      verifier({ extra: 1 });
    } catch (e) {
      setting = (e as { setting?: unknown }).setting;
    }
    expect(setting).toBe('decryption.extra');
  });

  it('ECDH-ES with an off-curve or wrong-curve epk is refused: ERR_JWE_EPK_INVALID', async () => {
    const p256 = await curves['P-256'];
    const p384 = await curves['P-384'];
    const v = createVerifier({
      algorithms: ['HS256'],
      key: signingSecret,
      decryption: jweDecryption({ keys: [p256.priv] }),
    });
    const good = await createEncrypter({ alg: 'ECDH-ES', enc: 'A256GCM', key: p256.pub }).encrypt(signer.signSync({}));
    const [, ...rest] = good.split('.');
    const h = JSON.parse(
      new TextDecoder().decode(
        Uint8Array.from(atob(good.split('.')[0]!.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)),
      ),
    ) as { epk: EncryptionJWK };
    const swap = (epk: unknown) => [header({ ...h, epk }), ...rest].join('.');
    // Off the curve: y changed by one bit.
    const y = Uint8Array.from(atob(h.epk.y!.replace(/-/g, '+').replace(/_/g, '/') + '='), (c) => c.charCodeAt(0));
    y[31]! ^= 1;
    expect(await codeOf(() => v.verify(swap({ ...h.epk, y: b64u(y) })))).toBe('ERR_JWE_EPK_INVALID');
    expect(await codeOf(() => v.verify(swap(p384.pub)))).toBe('ERR_JWE_EPK_INVALID');
    expect(await codeOf(() => v.verify(swap({ ...h.epk, crv: 'P-384' })))).toBe('ERR_JWE_EPK_INVALID');
    expect(await codeOf(() => v.verify(swap(undefined)))).toBe('ERR_JWE_EPK_INVALID');
    expect(await codeOf(() => v.verify(swap({ ...p256.priv })))).toBe('ERR_JWE_EPK_INVALID');
  });

  it('X25519 with a small-order epk (all-zero shared secret) is refused: ERR_JWE_EPK_INVALID', async () => {
    const x = await curves.X25519;
    const v = createVerifier({
      algorithms: ['HS256'],
      key: signingSecret,
      decryption: jweDecryption({ keys: [x.priv] }),
    });
    const h = header({
      alg: 'ECDH-ES',
      enc: 'A256GCM',
      epk: { kty: 'OKP', crv: 'X25519', x: b64u(new Uint8Array(32)) },
    });
    expect(await codeOf(() => v.verify(`${h}..AAAAAAAAAAAAAAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA`))).toBe(
      'ERR_JWE_EPK_INVALID',
    );
  });

  it(
    'jwe_wrong_length_cek_fails_as_decryption: a wrong-length or unreadable CEK fails like a forged tag (RFC ' +
      '7516 §11.5): same code, content decryption reached',
    async () => {
      // Every case must reach the content cipher (with a random CEK) and fail there, exactly as
      // a good CEK with a forged tag does: no code and no shortcut tells the faults apart.
      const original = jweBackend.gcmDecrypt;
      let calls = 0;
      jweBackend.gcmDecrypt = (...args) => {
        calls++;
        return original.apply(jweBackend, args);
      };
      const refusedAtContent = async (
        v: { verify(t: string): Promise<unknown> },
        token: string,
        label: string,
      ): Promise<void> => {
        const before = calls;
        expect(await codeOf(() => v.verify(token)), label).toBe('ERR_JWE_DECRYPTION_FAILED');
        expect(calls - before, label).toBe(1);
      };
      try {
        // A256KW wrapping a 16-byte CEK for A256GCM (which needs 32), a wrapped key cut short, garbage.
        const kek = await crypto.subtle.importKey('raw', key, 'AES-KW', false, ['wrapKey']);
        const short = await crypto.subtle.importKey('raw', new Uint8Array(16), 'AES-GCM', true, ['encrypt']);
        const ek = b64u(new Uint8Array(await crypto.subtle.wrapKey('raw', short, kek, 'AES-KW')));
        await refusedAtContent(verifier(), fake({ alg: 'A256KW', enc: 'A256GCM' }, ek), 'A256KW short CEK');
        await refusedAtContent(verifier(), fake({ alg: 'A256KW', enc: 'A256GCM' }, 'AAAA'), 'A256KW truncated');
        await refusedAtContent(
          verifier(),
          fake({ alg: 'A256KW', enc: 'A256GCM' }, b64u(new Uint8Array(40).fill(9))),
          'A256KW garbage',
        );
        // RSA-OAEP-256 carrying a 16-byte CEK for A256GCM, and an encrypted key that is not OAEP at all.
        const r = await rsa;
        const pub = await crypto.subtle.importKey(
          'jwk',
          r.pub as JsonWebKey,
          { name: 'RSA-OAEP', hash: 'SHA-256' },
          false,
          ['encrypt'],
        );
        const ek2 = b64u(new Uint8Array(await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, pub, new Uint8Array(16))));
        const v = createVerifier({
          algorithms: ['HS256'],
          key: signingSecret,
          decryption: jweDecryption({ keys: [r.priv] }),
        });
        await refusedAtContent(v, fake({ alg: 'RSA-OAEP-256', enc: 'A256GCM' }, ek2), 'RSA short CEK');
        await refusedAtContent(
          v,
          fake({ alg: 'RSA-OAEP-256', enc: 'A256GCM' }, b64u(new Uint8Array(256).fill(1))),
          'RSA bad padding',
        );
        await refusedAtContent(v, fake({ alg: 'RSA-OAEP-256', enc: 'A256GCM' }, 'AAAA'), 'RSA wrong size');
        // The reference: a good CEK under a forged tag.
        const good = await createEncrypter({ alg: 'A256KW', enc: 'A256GCM', key }).encrypt({ a: 1 });
        const parts = good.split('.');
        parts[4] = (parts[4]![0] === 'A' ? 'B' : 'A') + parts[4]!.slice(1);
        await refusedAtContent(verifier(), parts.join('.'), 'forged tag');
      } finally {
        jweBackend.gcmDecrypt = original;
      }
      // A CBC-HS CEK of the wrong length fails at the tag check like any other.
      const kek = await crypto.subtle.importKey('raw', key, 'AES-KW', false, ['wrapKey']);
      const cek32 = await crypto.subtle.importKey('raw', new Uint8Array(32), 'AES-GCM', true, ['encrypt']);
      const ek3 = b64u(new Uint8Array(await crypto.subtle.wrapKey('raw', cek32, kek, 'AES-KW')));
      expect(await codeOf(() => verifier().verify(fake({ alg: 'A256KW', enc: 'A256CBC-HS512' }, ek3)))).toBe(
        'ERR_JWE_DECRYPTION_FAILED',
      );
      // dir and ECDH-ES carry no encrypted key: one present is a malformed token, told by its shape alone.
      expect(await codeOf(() => verifier().verify(fake({ alg: 'dir', enc: 'A256GCM' }, 'AAAA')))).toBe(
        'ERR_JWE_CEK_INVALID',
      );
    },
  );

  it('CBC-HS: a forged tag is refused before any AES-CBC decryption (no padding oracle)', async () => {
    const e = createEncrypter({ alg: 'dir', enc: 'A256CBC-HS512', key: new Uint8Array(64).fill(3) });
    const v = createVerifier({
      algorithms: ['HS256'],
      key: signingSecret,
      decryption: jweDecryption({ keys: [new Uint8Array(64).fill(3)] }),
    });
    const token = await e.encrypt(signer.signSync({ a: 1 }, { expiresIn: 60 }));
    const parts = token.split('.');
    const tag = parts[4]!;
    parts[4] = (tag[0] === 'A' ? 'B' : 'A') + tag.slice(1);
    // Whichever backend this runtime selected (WebCrypto, or node:crypto under `node`), counted
    // by hand: the shared corpus also runs outside Vitest, without its spies.
    const original = jweBackend.cbcDecrypt;
    let calls = 0;
    jweBackend.cbcDecrypt = (...args) => {
      calls++;
      return original.apply(jweBackend, args);
    };
    try {
      expect(await codeOf(() => v.verify(parts.join('.')))).toBe('ERR_JWE_DECRYPTION_FAILED');
      expect(calls).toBe(0);
      // The untouched token does reach AES-CBC.
      expect((await v.verify(token)).payload.a).toBe(1);
      expect(calls).toBe(1);
    } finally {
      jweBackend.cbcDecrypt = original;
    }
  });

  it('nested JWTs are checked on both layers: a bad inner signature fails after a good decryption', async () => {
    const e = createEncrypter({ alg: 'dir', enc: 'A256GCM', key });
    const otherSigner = createSigner({ alg: 'HS256', key: crypto.getRandomValues(new Uint8Array(32)) });
    expect(await codeOf(async () => verifier().verify(await e.encrypt(otherSigner.signSync({}))))).toBe(
      'ERR_JWS_SIGNATURE_INVALID',
    );
    const expired = signer.signSync({}, { iat: 1000, expiresIn: 1 });
    expect(await codeOf(async () => verifier().verify(await e.encrypt(expired)))).toBe('ERR_JWT_EXPIRED');
    const wrongKey = createEncrypter({ alg: 'dir', enc: 'A256GCM', key: new Uint8Array(32) });
    expect(await codeOf(async () => verifier().verify(await wrongKey.encrypt(signer.signSync({}))))).toBe(
      'ERR_JWE_DECRYPTION_FAILED',
    );
  });

  it('direct claims are checked like a JWS payload (exp, iss)', async () => {
    const e = createEncrypter({ alg: 'A256KW', enc: 'A128CBC-HS256', key });
    const v = createVerifier({
      algorithms: ['HS256'],
      key: signingSecret,
      issuer: 'https://i.example',
      decryption: jweDecryption({ keys: [key] }),
    });
    expect(await codeOf(async () => v.verify(await e.encrypt({ iss: 'https://i.example', exp: 1 })))).toBe(
      'ERR_JWT_EXPIRED',
    );
    expect(await codeOf(async () => v.verify(await e.encrypt({ iss: 'https://other', exp: 4e9 })))).toBe(
      'ERR_JWT_CLAIM_INVALID',
    );
    expect((await v.verify(await e.encrypt({ iss: 'https://i.example', exp: 4e9 }))).payload.exp).toBe(4e9);
  });

  it(
    'jwe_verify_sync_node: verifySync decrypts a dir AES-GCM JWE where the cipher is synchronous (node), else ' +
      'ERR_ASYNC_REQUIRED; without `decryption` a JWE is malformed',
    async () => {
      const dir = createEncrypter({ alg: 'dir', enc: 'A256GCM', key });
      const nested = await dir.encrypt(signer.signSync({ sub: 'n' }));
      const direct = await dir.encrypt({ sub: 'd', exp: 4e9 });
      const wrapped = await createEncrypter({ alg: 'A256KW', enc: 'A256GCM', key }).encrypt(
        signer.signSync({ sub: 'w' }),
      );
      const v = verifier();
      if (jweBackend.name === 'node') {
        // The first token too: no key import stands in the way.
        expect(v.verifySync<{ sub: string }>(nested).payload.sub).toBe('n');
        expect(v.verifySync<{ sub: string }>(direct).payload.sub).toBe('d');
        // Both layers still checked: a nested token under another signing key is refused.
        const other = createSigner({ alg: 'HS256', key: crypto.getRandomValues(new Uint8Array(32)) });
        expect(await codeOf(async () => v.verifySync(await dir.encrypt(other.signSync({}))))).toBe(
          'ERR_JWS_SIGNATURE_INVALID',
        );
      } else {
        expect(codeOfSync(() => v.verifySync(nested))).toBe('ERR_ASYNC_REQUIRED');
        await v.verify(nested); // the key is imported now; the cipher still answers later
        expect(codeOfSync(() => v.verifySync(direct))).toBe('ERR_ASYNC_REQUIRED');
      }
      // AES key wrapping goes through WebCrypto in every runtime.
      expect(codeOfSync(() => v.verifySync(wrapped))).toBe('ERR_ASYNC_REQUIRED');
      expect((await v.verify(wrapped)).payload.sub).toBe('w');
      expect(await codeOf(() => createVerifier({ algorithms: ['HS256'], key: signingSecret }).verify(nested))).toBe(
        'ERR_JWT_MALFORMED',
      );
    },
  );

  it('decryption keys follow RFC 7517: signature keys, public keys and short RSA are refused', async () => {
    const r = await rsa;
    expect(codeOfSync(() => verifier({ keys: [{ ...r.priv, use: 'sig' }] }))).toBe('ERR_KEY_INVALID');
    expect(codeOfSync(() => verifier({ keys: [r.pub] }))).toBe('ERR_KEY_INVALID');
    expect(codeOfSync(() => verifier({ keys: [] }))).toBe('ERR_OPTIONS_INVALID');
    expect(codeOfSync(() => createEncrypter({ alg: 'A256KW', enc: 'A256GCM', key: new Uint8Array(16) }))).toBe(
      'ERR_KEY_ALG_MISMATCH',
    );
    expect(codeOfSync(() => createEncrypter({ alg: 'dir', enc: 'A256GCM', key, header: { alg: 'x' } }))).toBe(
      'ERR_OPTIONS_INVALID',
    );
  });

  it(
    'a private JWK member that is not base64url is refused in every runtime (ERR_KEY_INVALID), whatever the JWK ' +
      'importer would do',
    async () => {
      const r = await rsa;
      // Node's JWK import skips unknown characters; the key checks do not leave it to the runtime.
      expect(
        codeOfSync(() =>
          createVerifier({
            algorithms: ['HS256'],
            key: signingSecret,
            decryption: jweDecryption({ keys: [{ ...r.priv, qi: '*not base64url*' }] }),
          }),
        ),
      ).toBe('ERR_KEY_INVALID');
      expect(
        codeOfSync(() => createEncrypter({ alg: 'RSA-OAEP-256', enc: 'A256GCM', key: { ...r.pub, e: 'A=A' } })),
      ).toBe('ERR_KEY_INVALID');
    },
  );

  it('two keys that both fit and no kid to choose: ERR_JWKS_MULTIPLE_MATCHING_KEYS; kid chooses', async () => {
    const k2 = crypto.getRandomValues(new Uint8Array(32));
    const v = createVerifier({
      algorithms: ['HS256'],
      key: signingSecret,
      decryption: jweDecryption({
        keys: [
          { kty: 'oct', kid: 'a', k: b64u(key) },
          { kty: 'oct', kid: 'b', k: b64u(k2) },
        ],
      }),
    });
    const jws = signer.signSync({ n: 1 }, { expiresIn: 60 });
    expect(
      await codeOf(async () => v.verify(await createEncrypter({ alg: 'dir', enc: 'A256GCM', key: k2 }).encrypt(jws))),
    ).toBe('ERR_JWKS_MULTIPLE_MATCHING_KEYS');
    expect(
      (
        await v.verify(
          await createEncrypter({ alg: 'dir', enc: 'A256GCM', key: k2, header: { kid: 'b' } }).encrypt(jws),
        )
      ).payload.n,
    ).toBe(1);
  });
});

describe('JWE key reuse', () => {
  it('jwe_dir_key_imported_once: a dir AES-GCM key is imported into WebCrypto once, not per token', async () => {
    const key = crypto.getRandomValues(new Uint8Array(32));
    const enc = createEncrypter({ alg: 'dir', enc: 'A256GCM', key });
    const verifier = createVerifier({
      algorithms: ['HS256'],
      key: signingSecret,
      cache: false,
      decryption: jweDecryption({ keys: [key] }),
    });
    const tokens = await Promise.all(
      [1, 2, 3].map((i) => enc.encrypt({ sub: `u${i}`, exp: Math.floor(Date.now() / 1000) + 60 })),
    );
    const original = crypto.subtle.importKey.bind(crypto.subtle);
    let imports = 0;
    crypto.subtle.importKey = ((...args: Parameters<typeof original>) => {
      imports++;
      return original(...args);
    }) as typeof original;
    try {
      for (const t of tokens) expect((await verifier.verify(t)).payload.sub).toMatch(/^u\d$/);
    } finally {
      crypto.subtle.importKey = original;
    }
    // One import in WebCrypto runtimes; none under node, whose cipher takes the bytes.
    expect(imports).toBe(jweBackend.name === 'webcrypto' ? 1 : 0);
  });
});

describe('JWE EC keys on the curve', () => {
  const header = (h: Record<string, unknown>) => b64u(enc8.encode(JSON.stringify(h)));
  const offCurve = (jwk: EncryptionJWK): EncryptionJWK => {
    const y = Uint8Array.from(
      atob(jwk.y!.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (jwk.y!.length % 4)) % 4)),
      (c) => c.charCodeAt(0),
    );
    y[y.length - 1]! ^= 1;
    return { ...jwk, y: b64u(y) };
  };

  it(
    'jwe_epk_on_curve_checked_before_import: an off-curve epk (Wycheproof invalid-curve points) is refused ' +
      'before the runtime sees it',
    async () => {
      for (const [crv, file] of [
        ['P-256', p256Vectors],
        ['P-384', p384Vectors],
      ] as const) {
        const c = await curves[crv];
        const v = createVerifier({
          algorithms: ['HS256'],
          key: signingSecret,
          decryption: jweDecryption({ keys: [c.priv] }),
        });
        const points = file.testGroups.flatMap((g) =>
          g.tests
            .filter((t) => t.flags.includes('InvalidCurveAttack'))
            .map((t) => t.public as { kty: string; crv: string; x: string; y: string }),
        );
        expect(points.length, crv).toBeGreaterThanOrEqual(16);
        const original = crypto.subtle.importKey.bind(crypto.subtle);
        const publicImports: unknown[] = [];
        crypto.subtle.importKey = ((...args: Parameters<typeof original>) => {
          const [format, data] = args;
          if ((format as string) === 'jwk' && (data as JsonWebKey).d === undefined && (data as JsonWebKey).kty === 'EC')
            publicImports.push(data);
          return original(...args);
        }) as typeof original;
        try {
          for (const { kty, crv: pc, x, y } of points) {
            const epk = { kty, crv: pc, x, y };
            const token =
              `${header({ alg: 'ECDH-ES', enc: 'A256GCM', epk })}` + '..AAAAAAAAAAAAAAAA.AAAA.AAAAAAAAAAAAAAAAAAAAAA';
            expect(await codeOf(() => v.verify(token)), `${crv} ${x}`).toBe('ERR_JWE_EPK_INVALID');
          }
        } finally {
          crypto.subtle.importKey = original;
        }
        // Refused by src/keys/ec-point.ts: no off-curve point was handed to WebCrypto's importer.
        expect(publicImports, crv).toEqual([]);
      }
    },
  );

  it(
    'jwe_recipient_key_on_curve_when_made: an off-curve recipient or decryption key is refused by ' +
      'createEncrypter / createVerifier at once',
    async () => {
      for (const crv of ['P-256', 'P-384'] as const) {
        const c = await curves[crv];
        expect(
          codeOfSync(() => createEncrypter({ alg: 'ECDH-ES', enc: 'A256GCM', key: offCurve(c.pub) })),
          crv,
        ).toBe('ERR_KEY_INVALID');
        expect(
          codeOfSync(() =>
            createVerifier({
              algorithms: ['HS256'],
              key: signingSecret,
              decryption: jweDecryption({ keys: [offCurve(c.priv)] }),
            }),
          ),
          crv,
        ).toBe('ERR_KEY_INVALID');
      }
    },
  );
});

describe('jwe_decryption_key_public_part_matches_private', () => {
  // A private decryption JWK whose public members are another key's is refused at its
  // first decrypt (ERR_KEY_INVALID), whatever the runtime's importer makes of it.
  for (const [alg, crv, members] of [
    ['ECDH-ES', 'P-256', ['x', 'y']],
    ['ECDH-ES', 'P-384', ['x', 'y']],
    ['ECDH-ES', 'X25519', ['x']],
    ['RSA-OAEP-256', '', ['n']],
  ] as const) {
    it(`${alg} ${crv}: public ${members.join(',')} of another key refused; the matching pair decrypts`, async () => {
      const pairs =
        crv === ''
          ? [
              await rsa,
              await pairJwks(
                { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
                ['encrypt', 'decrypt'],
              ),
            ]
          : [
              await curves[crv],
              await pairJwks(crv === 'X25519' ? { name: 'X25519' } : { name: 'ECDH', namedCurve: crv }, ['deriveBits']),
            ];
      const [mine, other] = pairs as [
        { pub: EncryptionJWK; priv: EncryptionJWK },
        { pub: EncryptionJWK; priv: EncryptionJWK },
      ];
      const swapped = {
        ...mine.priv,
        ...Object.fromEntries(members.map((m) => [m, (other.pub as unknown as Record<string, string>)[m]!])),
      } as EncryptionJWK;
      const token = await createEncrypter({ alg, enc: 'A256GCM', key: mine.pub }).encrypt(
        signer.signSync({ n: 1 }, { expiresIn: 60 }),
      );
      const verifier = (key: EncryptionJWK) =>
        createVerifier({ algorithms: ['HS256'], key: signingSecret, decryption: jweDecryption({ keys: [key] }) });
      expect(await codeOf(() => verifier(swapped).verify(token))).toBe('ERR_KEY_INVALID');
      expect(await codeOf(() => verifier(mine.priv).verify(token))).toBe('OK');
    });
  }
});
