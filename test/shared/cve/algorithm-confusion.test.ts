// Algorithm confusion advisories: each builds the forged token its advisory describes
// (an HS256 MAC under bytes the attacker knows: a public key's PEM, SPKI, JWK text or an
// OpenSSH line; alg "none"; a key set whose key has no `alg`, or an `oct` key) and shows
// what edgejwt and the guard answer. Every case also verifies the genuine token, so a
// refusal cannot come from a broken setup.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSigner, createVerifier, createRemoteJWKSet, type JWK } from '../../../src/index.js';
import { jwtAuth } from '../../../src/hono/index.js';
import { ConfigError } from '../../../src/worker/config-error.js';
import { b64u, claims, codeOf, codeOfSync, generate, mint, nowDate, type KeyPair } from '../jwt-mint.js';
import { HS_ISS, ISS, enc, guardFor, hsGuard, keySetGuard, liveClaims, macToken, spkiPem } from './cve-kit.js';

/** Every byte string an attacker can read off a published public key and use as an HMAC secret. */
async function publicKeyTexts(pair: KeyPair): Promise<Uint8Array[]> {
  const pem = await spkiPem(pair.publicKey);
  const spki = new Uint8Array(await crypto.subtle.exportKey('spki', pair.publicKey));
  const texts = [pem, `\n${pem}`, ` ${pem}`, JSON.stringify(pair.publicJwk), pem.trim()];
  return [...texts.map((t) => enc.encode(t)), spki];
}

/** The OpenSSH one-line form of a P-256 public key (RFC 5656 §3.1), as python-jose's blocklist missed it. */
async function opensshLine(pair: KeyPair): Promise<string> {
  const raw = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey));
  const field = (b: Uint8Array): number[] => [0, 0, (b.length >> 8) & 0xff, b.length & 0xff, ...b];
  const name = enc.encode('ecdsa-sha2-nistp256');
  const wire = new Uint8Array([...field(name), ...field(enc.encode('nistp256')), ...field(raw)]);
  let bin = '';
  for (const b of wire) bin += String.fromCharCode(b);
  return `ecdsa-sha2-nistp256 ${btoa(bin)} user@host`;
}

/** The ERR_ code createVerifier throws for `key` as an HS256 secret, and the message (which must not echo it). */
function hsKeyRefusal(key: unknown): { code: string; message: string } {
  try {
    createVerifier({ algorithms: ['HS256'], key: key as Uint8Array });
    return { code: 'OK', message: '' };
  } catch (e) {
    return { code: String((e as { code?: unknown }).code), message: (e as Error).message };
  }
}

describe('CVE-2026-22817 hono: the JWT middleware defaulted to HS256, so a public key became an HMAC secret', () => {
  it('no_default_algorithm: createVerifier and edgejwt/hono refuse options without `algorithms`', async () => {
    const rs = await generate('RS256');
    const noAlgs = { key: rs.publicJwk } as unknown as Parameters<typeof createVerifier>[0];
    expect(codeOfSync(() => createVerifier(noAlgs))).toBe('ERR_OPTIONS_INVALID');
    expect(codeOfSync(() => jwtAuth(noAlgs as Parameters<typeof jwtAuth>[0]))).toBe('ERR_OPTIONS_INVALID');
  });

  for (const alg of ['RS256', 'ES256'] as const) {
    it(`public_key_bytes_never_an_hmac_secret: ${alg} key, HS256 MACed with its PEM, SPKI or JWK text`, async () => {
      const pair = await generate(alg);
      const key = pair.publicJwk as JWK;
      const strict = createVerifier({ algorithms: [alg], key, currentDate: nowDate });
      const mixed = createVerifier({ algorithms: [alg, 'HS256'], key, currentDate: nowDate });
      expect((await strict.verify(await mint(pair, claims()))).payload.sub).toBe('user-1');
      for (const secret of await publicKeyTexts(pair)) {
        const forged = await macToken(secret, {}, claims());
        expect(await codeOf(() => strict.verify(forged))).toBe('ERR_JWS_ALG_NOT_ALLOWED');
        expect(await codeOf(() => mixed.verify(forged))).toBe('ERR_KEY_ALG_MISMATCH');
      }
    });
  }

  it('guard_refuses_hs256_forged_with_the_issuer_public_key: 401 for each forgery, 200 for the genuine', async () => {
    const rs = await generate('RS256');
    const jwk = { ...rs.publicJwk, kid: 'rs-1' };
    const g = await keySetGuard('RS256', () => ({ keys: [jwk] }));
    expect((await g.send(await mint(rs, liveClaims(ISS), { kid: 'rs-1' }))).status).toBe(200);
    for (const secret of [...(await publicKeyTexts(rs)), enc.encode(JSON.stringify(jwk))]) {
      expect((await g.send(await macToken(secret, { kid: 'rs-1' }, liveClaims(ISS)))).status).toBe(401);
    }
    expect(g.originCalls()).toBe(1);
  });
});

describe('CVE-2026-22818 hono: with a JWK lacking `alg`, the token header chose the algorithm', () => {
  it('jwk_without_alg_never_follows_the_header: RSA key without alg, tokens claiming HS256, RS512, PS256', async () => {
    const rs = await generate('RS256');
    const jwk = { ...(rs.publicJwk as JWK), kid: 'k1' };
    expect(jwk.alg).toBeUndefined();
    const set = createVerifier({ algorithms: ['RS256'], jwks: { keys: [jwk] }, currentDate: nowDate });
    // Even with HS256 allowed, an RSA key is never an HMAC key.
    const wide = createVerifier({ algorithms: ['RS256', 'HS256'], jwks: { keys: [jwk] }, currentDate: nowDate });
    expect((await set.verify(await mint(rs, claims(), { kid: 'k1' }))).payload.sub).toBe('user-1');
    for (const secret of await publicKeyTexts(rs)) {
      const forged = await macToken(secret, { kid: 'k1' }, claims());
      expect(await codeOf(() => set.verify(forged))).toBe('ERR_JWS_ALG_NOT_ALLOWED');
      expect(await codeOf(() => wide.verify(forged))).toBe('ERR_JWKS_NO_MATCHING_KEY');
    }
    // Another RSA algorithm named by the header: not in the allow-list.
    for (const other of ['RS512', 'PS256'] as const) {
      const t = await mint({ alg: other, privateKey: (await generate(other)).privateKey }, claims(), { kid: 'k1' });
      expect(await codeOf(() => set.verify(t))).toBe('ERR_JWS_ALG_NOT_ALLOWED');
    }
  });

  it('guard_refuses_hs_algorithms_on_a_key_set: a key-set issuer allowing HS256 is a config error', async () => {
    const issuer = { issuer: ISS, audience: 'api', algorithms: ['RS256', 'HS256'], jwksUrl: `${ISS}/jwks` };
    await expect(guardFor({ issuers: [issuer] })).rejects.toThrow(ConfigError);
  });
});

describe('GHSA-mvf2-f6gm-w987 fast-jwt (CVE-2026-34950): a PEM behind whitespace was taken for an HMAC secret', () => {
  it('pem_string_never_a_key: the PEM text, also after a newline, space or tab, is refused', async () => {
    const rs = await generate('RS256');
    const pem = await spkiPem(rs.publicKey);
    for (const text of [pem, `\n${pem}`, ` ${pem}`, `\t${pem}`, `\r\n${pem}`]) {
      for (const algorithms of [['RS256'], ['HS256'], ['RS256', 'HS256']] as const) {
        const key = text as unknown as Uint8Array;
        expect(codeOfSync(() => createVerifier({ algorithms, key }))).toBe('ERR_KEY_INVALID');
      }
    }
  });
});

describe('CVE-2023-48223 fast-jwt, CVE-2022-29217 PyJWT, CVE-2024-33663 python-jose: public key text as secret', () => {
  it('public_key_text_never_an_hmac_secret: PEM (after whitespace), DER, JWK JSON, OpenSSH as HS bytes', async () => {
    for (const alg of ['RS256', 'ES256', 'EdDSA'] as const) {
      const pair = await generate(alg);
      const texts = await publicKeyTexts(pair);
      if (alg === 'ES256') texts.push(enc.encode(await opensshLine(pair)));
      for (const secret of texts) {
        const { code, message } = hsKeyRefusal(secret);
        expect(code, `${alg} ${new TextDecoder().decode(secret.subarray(0, 12))}`).toBe('ERR_KEY_INVALID');
        expect(message).not.toContain(b64u(secret).slice(0, 16));
        // The same text as an oct JWK in a key set: the key is passed over, never used.
        const keys = [{ kty: 'oct', k: b64u(secret) }];
        const set = createVerifier({ algorithms: ['HS256'], jwks: { keys }, currentDate: nowDate });
        const forged = await macToken(secret, {}, claims());
        expect(await codeOf(() => set.verify(forged))).toBe('ERR_JWKS_NO_MATCHING_KEY');
      }
    }
  });

  it('signer_refuses_public_key_as_hs_secret: createSigner takes no public key text as an HMAC secret', async () => {
    // A token MACed under a published key proves nothing; the signer refuses what the verifier refuses.
    for (const alg of ['RS256', 'ES256'] as const) {
      for (const secret of await publicKeyTexts(await generate(alg))) {
        expect(codeOfSync(() => createSigner({ alg: 'HS256', key: secret }))).toBe('ERR_KEY_INVALID');
      }
    }
    expect(codeOfSync(() => createSigner({ alg: 'HS256', key: new Uint8Array(32).fill(7) }))).toBe('OK');
  });

  it('random_secrets_still_secrets: no random 32 to 64 byte secret is taken for a public key (fast-check)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 64 }), (secret) => {
        expect(hsKeyRefusal(secret).code).toBe('OK');
      }),
      { numRuns: 500 },
    );
  });

  it('guard_refuses_public_key_as_hs_secret: HS_KEY holding a public key PEM is a ConfigError at start', async () => {
    const rs = await generate('RS256');
    const pem = enc.encode(await spkiPem(rs.publicKey));
    const refusal = await hsGuard(pem).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refusal).toBeInstanceOf(ConfigError);
    expect(String(refusal)).toContain('public key');
    expect(String(refusal)).not.toContain(b64u(pem).slice(0, 16));
  });
});

describe('GHSA-ww5h-9m49-7xx4 fast-jwt (text not found; from issue 33): a key set with an `oct` key', () => {
  it('published_oct_key_never_verifies: a fetched set with oct and alg-less RSA keys; HS256 MACed with k', async () => {
    const rs = await generate('RS256');
    const secret = crypto.getRandomValues(new Uint8Array(32));
    const keys = [
      { kty: 'oct', k: b64u(secret), kid: 'h1' },
      { ...(rs.publicJwk as JWK), kid: 'r1' },
    ];
    const fetcher = (async () => Response.json({ keys })) as unknown as typeof fetch;
    const remote = createRemoteJWKSet('https://issuer.example/jwks', { fetch: fetcher });
    const v = createVerifier({ algorithms: ['RS256', 'HS256'], jwks: remote, currentDate: nowDate });
    expect((await v.verify(await mint(rs, claims(), { kid: 'r1' }))).payload.sub).toBe('user-1');
    for (const kid of ['h1', 'r1', undefined]) {
      const forged = await macToken(secret, kid === undefined ? {} : { kid }, claims());
      expect(await codeOf(() => v.verify(forged))).toBe('ERR_JWKS_NO_MATCHING_KEY');
    }
  });
});

describe('GHSA-8wpc-h4q6-8fxv fast-jwt (text not found; from issue 33): alg none, empty secrets', () => {
  it('alg_none_never_verifies: none in any case, empty or any signature, to the library and the guard', async () => {
    const hs = await generate('HS256');
    const v = createVerifier({ algorithms: ['HS256'], key: hs.secret!, currentDate: nowDate });
    const g = await hsGuard(hs.secret!);
    expect((await g.send(await mint(hs, liveClaims(HS_ISS)))).status).toBe(200);
    for (const alg of ['none', 'None', 'NONE']) {
      for (const sig of ['', 'AAAA']) {
        const t = `${b64u(JSON.stringify({ alg, typ: 'JWT' }))}.${b64u(JSON.stringify(claims()))}.${sig}`;
        expect(await codeOf(() => v.verify(t))).toMatch(/^ERR_(JWT_MALFORMED|JWS_ALG_NOT_ALLOWED)$/);
        const live = `${b64u(JSON.stringify({ alg }))}.${b64u(JSON.stringify(liveClaims(HS_ISS)))}.${sig}`;
        expect((await g.send(live)).status).toBe(401);
      }
    }
  });

  it('empty_secret_refused: a zero-length HMAC key is refused; an empty-key MAC never verifies', async () => {
    expect(hsKeyRefusal(new Uint8Array(0)).code).toBe('ERR_KEY_TOO_SHORT');
    const v = createVerifier({ algorithms: ['HS256'], jwks: { keys: [{ kty: 'oct', k: '' }] }, currentDate: nowDate });
    // WebCrypto refuses a zero-length HMAC key; HMAC pads keys with zeros, so one zero byte gives the same MAC.
    const forged = await macToken(new Uint8Array(1), {}, claims());
    expect(await codeOf(() => v.verify(forged))).toBe('ERR_KEY_TOO_SHORT');
  });
});

describe('CVE-2024-33663 python-jose: an OpenSSH-format ECDSA public key passed as an HMAC secret', () => {
  it('openssh_public_key_never_an_hmac_secret: refused as a key; its MAC never verifies for ES256', async () => {
    const es = await generate('ES256');
    const line = await opensshLine(es);
    expect(hsKeyRefusal(line).code).toBe('ERR_KEY_INVALID');
    const v = createVerifier({ algorithms: ['ES256'], key: es.publicJwk as JWK, currentDate: nowDate });
    expect((await v.verify(await mint(es, claims()))).payload.sub).toBe('user-1');
    const forged = await macToken(enc.encode(line), {}, claims());
    expect(await codeOf(() => v.verify(forged))).toBe('ERR_JWS_ALG_NOT_ALLOWED');
  });
});

describe('CVE-2024-37568 Authlib: without an algorithm list, HMAC verified with any asymmetric public key', () => {
  for (const alg of ['RS256', 'ES256', 'EdDSA'] as const) {
    it(`asymmetric_cryptokey_never_hmac: ${alg} public CryptoKey, HS256 allowed, refuses its PEM MAC`, async () => {
      const pair = await generate(alg);
      const v = createVerifier({ algorithms: [alg, 'HS256'], key: pair.publicKey, currentDate: nowDate });
      expect((await v.verify(await mint(pair, claims()))).payload.sub).toBe('user-1');
      for (const secret of await publicKeyTexts(pair)) {
        const forged = await macToken(secret, {}, claims());
        expect(await codeOf(() => v.verify(forged))).toBe('ERR_KEY_ALG_MISMATCH');
      }
    });
  }
});
