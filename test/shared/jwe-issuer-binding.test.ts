// Who unsigned claims may speak for (issue 22, items 1, 12, 13): direct JWE claims are
// bound to the decryption key that opened them, never to the issuer their own `iss`
// names; the encrypter refuses to make what the verifier refuses to take; and a JWE
// header that replicates iss/sub/aud must agree with the claims (RFC 7519 §5.3).
import * as jose from 'jose';
import { describe, expect, it } from 'vitest';
import { createEncrypter, createSigner, createVerifier, jweDecryption, type EncryptionJWK } from '../../src/index.js';
import { buildTwoStepVerifier } from '../../src/verify-path.js';
import { buildPolicy } from '../../src/options.js';
import { codeOf, codeOfSync } from './jwt-mint.js';

const A = 'https://a.example';
const B = 'https://b.example';
const enc8 = new TextEncoder();
const exp = (): number => Math.floor(Date.now() / 1000) + 300;

async function rsaPair(): Promise<{ pub: EncryptionJWK; priv: EncryptionJWK }> {
  const k = (await crypto.subtle.generateKey(
    { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
    true,
    ['encrypt', 'decrypt'],
  )) as CryptoKeyPair;
  const clean = async (key: CryptoKey): Promise<EncryptionJWK> => {
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

describe('jwe_direct_claims_bound_to_issuer', () => {
  // Issuer B signs (HS512) only; A shares an AES key with the verifier for direct claims.
  const sharedWithA = crypto.getRandomValues(new Uint8Array(32));
  const issuers = [
    { issuer: A, algorithms: ['HS256' as const], key: crypto.getRandomValues(new Uint8Array(32)) },
    { issuer: B, algorithms: ['HS512' as const], key: new Uint8Array(64).fill(7) },
  ];
  const forA = createEncrypter({ alg: 'dir', enc: 'A256GCM', key: sharedWithA });

  it(
    'jwe_direct_claims_bound_to_issuer: a direct JWE naming another configured issuer is refused, its own ' +
      'issuer accepted',
    async () => {
      const v = createVerifier({ issuers, decryption: jweDecryption({ keys: [{ key: sharedWithA, issuer: A }] }) });
      expect((await v.verify(await forA.encrypt({ iss: A, sub: 'ok', exp: exp() }))).payload.sub).toBe('ok');
      // Whoever holds A's shared key cannot speak for B, whatever the claims say.
      expect(await codeOf(async () => v.verify(await forA.encrypt({ iss: B, sub: 'admin', exp: exp() })))).toBe(
        'ERR_JWT_CLAIM_INVALID',
      );
      // Nor for nobody (no iss at all), nor with a look-alike value.
      expect(await codeOf(async () => v.verify(await forA.encrypt({ sub: 'x', exp: exp() })))).toBe(
        'ERR_JWT_CLAIM_INVALID',
      );
      expect(await codeOf(async () => v.verify(await forA.encrypt({ iss: [A], sub: 'x', exp: exp() })))).toBe(
        'ERR_JWT_CLAIM_INVALID',
      );
      // The same answer a second time: no cached result makes the unproven issuer count.
      const forged = await forA.encrypt({ iss: B, sub: 'admin', exp: exp() });
      expect(await codeOf(() => v.verify(forged))).toBe('ERR_JWT_CLAIM_INVALID');
      expect(await codeOf(() => v.verify(forged))).toBe('ERR_JWT_CLAIM_INVALID');
      // B's own (signed, nested) tokens still work through the same key.
      const bJws = createSigner({ alg: 'HS512', key: new Uint8Array(64).fill(7) }).signSync(
        { sub: 'b' },
        { issuer: B, expiresIn: 60 },
      );
      expect((await v.verify(await forA.encrypt(bJws))).payload.sub).toBe('b');
    },
  );

  it('jwe_direct_claims_bound_to_issuer: under issuers, an unbound key opens nested JWTs only', async () => {
    const v = createVerifier({ issuers, decryption: jweDecryption({ keys: [sharedWithA] }) });
    expect(await codeOf(async () => v.verify(await forA.encrypt({ iss: A, exp: exp() })))).toBe(
      'ERR_JWE_NESTED_REQUIRED',
    );
    expect(await codeOf(async () => v.verify(await forA.encrypt({ iss: B, exp: exp() })))).toBe(
      'ERR_JWE_NESTED_REQUIRED',
    );
  });

  it(
    'jwe_direct_claims_bound_to_issuer: one policy with several issuers needs a bound key; a bound key speaks ' +
      'for its issuer only',
    async () => {
      const signing = crypto.getRandomValues(new Uint8Array(32));
      const unbound = createVerifier({
        algorithms: ['HS256'],
        key: signing,
        issuer: [A, B],
        decryption: jweDecryption({ keys: [sharedWithA] }),
      });
      expect(await codeOf(async () => unbound.verify(await forA.encrypt({ iss: B, exp: exp() })))).toBe(
        'ERR_JWE_NESTED_REQUIRED',
      );
      const bound = createVerifier({
        algorithms: ['HS256'],
        key: signing,
        issuer: [A, B],
        decryption: jweDecryption({ keys: [{ key: sharedWithA, issuer: A }] }),
      });
      expect((await bound.verify(await forA.encrypt({ iss: A, sub: 'a', exp: exp() }))).payload.sub).toBe('a');
      expect(await codeOf(async () => bound.verify(await forA.encrypt({ iss: B, exp: exp() })))).toBe(
        'ERR_JWT_CLAIM_INVALID',
      );
      // A policy without an issuer check still holds a bound key's claims to its issuer.
      const open = createVerifier({
        algorithms: ['HS256'],
        key: signing,
        decryption: jweDecryption({ keys: [{ key: sharedWithA, issuer: A }] }),
      });
      expect(await codeOf(async () => open.verify(await forA.encrypt({ iss: B, exp: exp() })))).toBe(
        'ERR_JWT_CLAIM_INVALID',
      );
      expect((await open.verify(await forA.encrypt({ iss: A, sub: 'a', exp: exp() }))).payload.sub).toBe('a');
      // One policy with one issuer (or none): an unbound key still works as before.
      const single = createVerifier({
        algorithms: ['HS256'],
        key: signing,
        issuer: A,
        decryption: jweDecryption({ keys: [sharedWithA] }),
      });
      expect((await single.verify(await forA.encrypt({ iss: A, sub: 's', exp: exp() }))).payload.sub).toBe('s');
      expect(await codeOf(async () => single.verify(await forA.encrypt({ iss: B, exp: exp() })))).toBe(
        'ERR_JWT_CLAIM_INVALID',
      );
    },
  );

  it('jwe_direct_claims_bound_to_issuer: verifySync binds the same way', async () => {
    const v = createVerifier({ issuers, decryption: jweDecryption({ keys: [{ key: sharedWithA, issuer: A }] }) });
    const forged = await forA.encrypt({ iss: B, exp: exp() });
    const good = await forA.encrypt({ iss: A, sub: 'g', exp: exp() });
    await v.verify(good); // a key import, where the runtime needs one
    const sync = codeOfSync(() => v.verifySync(forged));
    // Where decryption is asynchronous verifySync cannot answer either way; it never accepts.
    expect(['ERR_JWT_CLAIM_INVALID', 'ERR_ASYNC_REQUIRED']).toContain(sync);
    if (sync === 'ERR_JWT_CLAIM_INVALID') expect(v.verifySync(good).payload.sub).toBe('g');
  });

  it('jwe_direct_claims_bound_to_issuer: a binding is checked when the verifier is built', () => {
    expect(
      codeOfSync(() =>
        createVerifier({
          issuers,
          decryption: jweDecryption({ keys: [{ key: sharedWithA, issuer: 'https://c.example' }] }),
        }),
      ),
    ).toBe('ERR_OPTIONS_INVALID');
    expect(
      codeOfSync(() =>
        createVerifier({
          algorithms: ['HS256'],
          key: sharedWithA,
          issuer: A,
          decryption: jweDecryption({ keys: [{ key: sharedWithA, issuer: B }] }),
        }),
      ),
    ).toBe('ERR_OPTIONS_INVALID');
    expect(
      codeOfSync(() =>
        createVerifier({ issuers, decryption: jweDecryption({ keys: [{ key: sharedWithA, issuer: '' }] }) }),
      ),
    ).toBe('ERR_OPTIONS_INVALID');
    expect(
      codeOfSync(() =>
        createVerifier({
          issuers,
          decryption: jweDecryption({ keys: [{ key: sharedWithA, issuer: A, extra: 1 } as never] }),
        }),
      ),
    ).toBe('ERR_OPTIONS_INVALID');
    // The guard's two-step verifier has no JWE path at all: no unsigned claims reach it.
    expect(
      codeOfSync(() =>
        buildTwoStepVerifier(
          { issuers, cache: false, decryption: jweDecryption({ keys: [{ key: sharedWithA, issuer: A }] }) },
          buildPolicy,
        ),
      ),
    ).toBe('ERR_OPTIONS_INVALID');
  });

  it(
    'jwe_direct_claims_bound_to_issuer: a jose-made direct ' + 'JWE under the shared key cannot name another issuer',
    async () => {
      const v = createVerifier({ issuers, decryption: jweDecryption({ keys: [{ key: sharedWithA, issuer: A }] }) });
      const make = (claims: Record<string, unknown>) =>
        new jose.CompactEncrypt(enc8.encode(JSON.stringify(claims)))
          .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
          .encrypt(sharedWithA);
      expect(await codeOf(async () => v.verify(await make({ iss: B, exp: exp() })))).toBe('ERR_JWT_CLAIM_INVALID');
      expect((await v.verify(await make({ iss: A, sub: 'j', exp: exp() }))).payload.sub).toBe('j');
    },
  );
});

describe('jwe_encrypter_refuses_unsigned_public_key_claims', () => {
  it(
    'jwe_encrypter_refuses_unsigned_public_key_claims: RSA-OAEP and ECDH-ES direct claims are refused by the ' +
      'encrypter as by the verifier',
    async () => {
      const r = await rsaPair();
      const ec = (await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, [
        'deriveBits',
      ])) as CryptoKeyPair;
      // WebCrypto exports key_ops: [] (and Deno alg: "ECDH", no JOSE name): neither is what this test is about.
      const {
        key_ops: _o,
        ext: _e,
        alg: _a,
        ...ecPub
      } = (await crypto.subtle.exportKey('jwk', ec.publicKey)) as EncryptionJWK & { ext?: boolean };
      for (const [alg, key] of [
        ['RSA-OAEP-256', r.pub],
        ['ECDH-ES', ecPub],
        ['ECDH-ES+A128KW', ecPub],
        ['ECDH-ES+A256KW', ecPub],
      ] as const) {
        const e = createEncrypter({ alg, enc: 'A256GCM', key: key as EncryptionJWK });
        expect(await codeOf(() => e.encrypt({ iss: A, exp: exp() })), alg).toBe('ERR_JWE_NESTED_REQUIRED');
        // A signed JWT inside is what they are for.
        const jws = createSigner({ alg: 'HS256', key: new Uint8Array(32).fill(1) }).signSync(
          { iss: A },
          { expiresIn: 60 },
        );
        expect((await e.encrypt(jws)).split('.')).toHaveLength(5);
      }
      // Shared keys still encrypt claims directly.
      expect(
        (await createEncrypter({ alg: 'A256KW', enc: 'A256GCM', key: new Uint8Array(32) }).encrypt({ iss: A })).split(
          '.',
        ),
      ).toHaveLength(5);
    },
  );
});

describe('jwe_replicated_header_claims_match', () => {
  const shared = crypto.getRandomValues(new Uint8Array(32));
  const signing = crypto.getRandomValues(new Uint8Array(32));
  const signer = createSigner({ alg: 'HS256', key: signing });
  const v = createVerifier({
    algorithms: ['HS256'],
    key: signing,
    issuer: [A],
    audience: ['api', 'other'],
    decryption: jweDecryption({ keys: [shared] }),
  });
  const joseJwe = (plaintext: string, header: Record<string, unknown>) =>
    new jose.CompactEncrypt(enc8.encode(plaintext))
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', ...header })
      .encrypt(shared);

  it(
    'jwe_replicated_header_claims_match: a jose-made JWE whose header replicates iss/sub/aud is accepted when ' +
      'they match, refused when not',
    async () => {
      const claims = { iss: A, sub: 'u1', aud: 'api', exp: exp() };
      const jws = signer.signSync({ sub: 'u1' }, { issuer: A, audience: 'api', expiresIn: 60 });
      for (const [plaintext, cty] of [
        [JSON.stringify(claims), {}],
        [jws, { cty: 'JWT' }],
      ] as const) {
        expect((await v.verify(await joseJwe(plaintext, { ...cty, iss: A, sub: 'u1', aud: 'api' }))).payload.sub).toBe(
          'u1',
        );
        expect(await codeOf(async () => v.verify(await joseJwe(plaintext, { ...cty, iss: B })))).toBe(
          'ERR_JWT_CLAIM_INVALID',
        );
        expect(await codeOf(async () => v.verify(await joseJwe(plaintext, { ...cty, sub: 'admin' })))).toBe(
          'ERR_JWT_CLAIM_INVALID',
        );
        expect(await codeOf(async () => v.verify(await joseJwe(plaintext, { ...cty, aud: 'other' })))).toBe(
          'ERR_JWT_CLAIM_INVALID',
        );
        // "Identical": an array is not the string it holds.
        expect(await codeOf(async () => v.verify(await joseJwe(plaintext, { ...cty, aud: ['api'] })))).toBe(
          'ERR_JWT_CLAIM_INVALID',
        );
      }
      // A nested token verified once (and cached) is still held to the header of each JWE that carries it.
      expect((await v.verify(await joseJwe(jws, { cty: 'JWT' }))).payload.sub).toBe('u1');
      expect(await codeOf(async () => v.verify(await joseJwe(jws, { cty: 'JWT', sub: 'admin' })))).toBe(
        'ERR_JWT_CLAIM_INVALID',
      );
    },
  );

  it('jwe_replicated_header_claims_match: the encrypter refuses a header that disagrees with the claims', async () => {
    const e = (header: Record<string, unknown>) => createEncrypter({ alg: 'dir', enc: 'A256GCM', key: shared, header });
    expect(await codeOf(() => e({ iss: B }).encrypt({ iss: A }))).toBe('ERR_JWT_CLAIM_INVALID');
    const jws = signer.signSync({ sub: 'u1' }, { issuer: A, audience: 'api', expiresIn: 60 });
    expect(await codeOf(() => e({ sub: 'admin' }).encrypt(jws))).toBe('ERR_JWT_CLAIM_INVALID');
    const ok = await e({ iss: A, sub: 'u1' }).encrypt(jws);
    expect((await v.verify(ok)).payload.sub).toBe('u1');
  });
});
