// src/keys/thumbprint.ts: RFC 7638 thumbprints, on the RFC's own vectors (RFC 7638
// §3.1, RFC 9449 §6.1) and against a WebCrypto SHA-256 of the canonical JSON for
// generated keys of every kty.
import { describe, expect, it } from 'vitest';
import { JwtError } from '../../src/errors.js';
import { jwkThumbprint, thumbprintInput } from '../../src/keys/thumbprint.js';
import rfc7638 from '../vectors/key-binding/rfc7638_thumbprint.json';
import rfc9449 from '../vectors/key-binding/rfc9449_dpop.json';
import { b64u, generate } from './jwt-mint.js';

const codeOf = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (e) {
    return e instanceof JwtError ? e.code : String(e);
  }
  return undefined;
};

describe('jwkThumbprint (RFC 7638)', () => {
  it('gives the RFC 7638 §3.1 thumbprint; kid and alg do not change it', () => {
    for (const t of rfc7638.tests) {
      expect(jwkThumbprint(t.jwk)).toBe(t.thumbprint);
      const { kid: _k, alg: _a, ...bare } = t.jwk;
      expect(jwkThumbprint(bare)).toBe(t.thumbprint);
    }
  });

  it('gives the jkt of RFC 9449 §6.1, whatever the member order', () => {
    expect(jwkThumbprint(rfc9449.jwk)).toBe(rfc9449.jkt);
    const { crv, y, x, kty } = rfc9449.jwk;
    expect(jwkThumbprint({ y, x, crv, kty, use: 'sig', kid: 'other' })).toBe(rfc9449.jkt);
  });

  it('equals SHA-256 of the required members, sorted, for generated EC, OKP, RSA and oct keys', async () => {
    for (const alg of ['ES256', 'ES384', 'ES512', 'EdDSA', 'RS256', 'HS256']) {
      const { publicJwk } = await generate(alg);
      const required = Object.fromEntries(
        Object.entries(publicJwk)
          .filter(([k]) => ['crv', 'kty', 'x', 'y', 'e', 'n', 'k'].includes(k))
          .sort(([a], [b]) => (a < b ? -1 : 1)),
      );
      const expected = b64u(
        new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(required)))),
      );
      expect(jwkThumbprint(publicJwk), alg).toBe(expected);
      expect(thumbprintInput(publicJwk), alg).toBe(JSON.stringify(required));
    }
  });

  it('hashes with SHA-384 or SHA-512 when asked', async () => {
    const text = thumbprintInput(rfc9449.jwk);
    for (const hash of ['SHA-384', 'SHA-512'] as const) {
      const expected = b64u(new Uint8Array(await crypto.subtle.digest(hash, new TextEncoder().encode(text))));
      expect(jwkThumbprint(rfc9449.jwk, hash)).toBe(expected);
    }
  });

  it(
    'refuses a key without a required member, with a ' + 'non-string member, or of an unknown kty (ERR_KEY_INVALID)',
    () => {
      const { x, y, crv } = rfc9449.jwk;
      expect(codeOf(() => jwkThumbprint({ kty: 'EC', crv, x }))).toBe('ERR_KEY_INVALID');
      expect(codeOf(() => jwkThumbprint({ kty: 'EC', crv, x, y: 5 }))).toBe('ERR_KEY_INVALID');
      expect(codeOf(() => jwkThumbprint({ kty: 'EC', crv, x, y: '' }))).toBe('ERR_KEY_INVALID');
      expect(codeOf(() => jwkThumbprint({ kty: 'XYZ', x }))).toBe('ERR_KEY_INVALID');
      expect(codeOf(() => jwkThumbprint({ crv, x, y }))).toBe('ERR_KEY_INVALID');
      expect(codeOf(() => jwkThumbprint([] as unknown as object))).toBe('ERR_KEY_INVALID');
      // A member inherited from the prototype is not the key's.
      const inherited = Object.create({ y }) as Record<string, unknown>;
      Object.assign(inherited, { kty: 'EC', crv, x });
      expect(codeOf(() => jwkThumbprint(inherited))).toBe('ERR_KEY_INVALID');
    },
  );
});
