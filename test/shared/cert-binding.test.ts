// src/keys/cert-binding.ts: RFC 8705 certificate-bound tokens, against a real DER
// certificate made with openssl (test/vectors/mtls/SOURCE.md). The certificate is
// hashed here with WebCrypto and must match openssl's fingerprint, which is the hex
// form Cloudflare gives in request.cf.tlsClientAuth.certFingerprintSHA256.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkCertificateBinding, createVerifier, JwtError } from '../../src/index.js';
import cert from '../vectors/mtls/client_cert.json';
import { b64u, claims, codeOfSync, generate, mint, nowDate } from './jwt-mint.js';

function derOf(pem: string): Uint8Array<ArrayBuffer> {
  const body = pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  const bin = atob(body);
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const bound = (x5t: unknown) => ({ sub: 'client-1', cnf: { 'x5t#S256': x5t } });
const HEX = cert.sha256sumOfDer; // lower case, as Cloudflare documents it

describe('checkCertificateBinding (RFC 8705 §3.1)', () => {
  it(
    'mtls_fingerprint_encoding_is_hex_of_der_sha256: ' + 'openssl, WebCrypto and x5t#S256 name the same 32 bytes',
    async () => {
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', derOf(cert.pem)));
      expect(hex(digest)).toBe(cert.opensslFingerprintSha256.replace(/:/g, '').toLowerCase());
      expect(hex(digest)).toBe(HEX);
      expect(b64u(digest)).toBe(cert.x5tS256);
      checkCertificateBinding(bound(cert.x5tS256), HEX);
      checkCertificateBinding(bound(cert.x5tS256), HEX.toUpperCase());
      checkCertificateBinding(bound(cert.x5tS256), digest);
    },
  );

  it('accepts a verified token bound to the certificate, and refuses it for another', async () => {
    const pair = await generate('ES256');
    const token = await mint(pair, claims({ cnf: { 'x5t#S256': cert.x5tS256 } }));
    const verifier = createVerifier({
      key: pair.publicJwk,
      algorithms: ['ES256'],
      issuer: 'https://issuer.example',
      audience: 'api',
      currentDate: nowDate,
    });
    const { payload } = await verifier.verify(token);
    expect(codeOfSync(() => checkCertificateBinding(payload, HEX))).toBe('OK');
    const other = HEX.slice(0, 63) + (HEX.endsWith('0') ? '1' : '0');
    expect(codeOfSync(() => checkCertificateBinding(payload, other))).toBe('ERR_MTLS_BINDING_MISMATCH');
  });

  it('mtls_unbound_token_refused: no cnf, a DPoP-only cnf, an inherited cnf, a non-string x5t#S256', () => {
    expect(codeOfSync(() => checkCertificateBinding({ sub: 'a' }, HEX))).toBe('ERR_MTLS_CNF_MISSING');
    expect(codeOfSync(() => checkCertificateBinding({ cnf: { jkt: cert.x5tS256 } }, HEX))).toBe('ERR_MTLS_CNF_MISSING');
    expect(codeOfSync(() => checkCertificateBinding({ cnf: [cert.x5tS256] }, HEX))).toBe('ERR_MTLS_CNF_MISSING');
    expect(codeOfSync(() => checkCertificateBinding({ cnf: 'x' }, HEX))).toBe('ERR_MTLS_CNF_MISSING');
    expect(codeOfSync(() => checkCertificateBinding(Object.create({ cnf: { 'x5t#S256': cert.x5tS256 } }), HEX))).toBe(
      'ERR_MTLS_CNF_MISSING',
    );
    expect(codeOfSync(() => checkCertificateBinding({ cnf: Object.create({ 'x5t#S256': cert.x5tS256 }) }, HEX))).toBe(
      'ERR_MTLS_CNF_MISSING',
    );
    expect(codeOfSync(() => checkCertificateBinding(bound(42), HEX))).toBe('ERR_MTLS_CNF_MISSING');
  });

  it('mtls_no_certificate_refused: the empty string Cloudflare sends without mTLS, undefined, null', () => {
    for (const none of ['', undefined, null])
      expect(codeOfSync(() => checkCertificateBinding(bound(cert.x5tS256), none))).toBe('ERR_MTLS_CERT_MISSING');
  });

  it(
    'mtls_fingerprint_only_documented_encoding: colons, base64, SHA-1 and SHA-512 lengths, stray characters are ' +
      'malformed',
    () => {
      const digest = derOf(cert.pem); // any bytes that are not 32 long
      const base64 = btoa(
        String.fromCharCode(...Array.from({ length: 32 }, (_, i) => parseInt(HEX.slice(2 * i, 2 * i + 2), 16))),
      );
      for (const f of [
        cert.opensslFingerprintSha256,
        base64,
        cert.x5tS256,
        HEX.slice(0, 40),
        HEX + HEX,
        ` ${HEX}`,
        `${HEX}\n`,
        HEX.slice(0, 63) + 'g',
        `0x${HEX.slice(2)}`,
      ]) {
        expect(codeOfSync(() => checkCertificateBinding(bound(cert.x5tS256), f))).toBe('ERR_MTLS_CERT_MALFORMED');
      }
      expect(codeOfSync(() => checkCertificateBinding(bound(cert.x5tS256), digest))).toBe('ERR_MTLS_CERT_MALFORMED');
      expect(codeOfSync(() => checkCertificateBinding(bound(cert.x5tS256), 42 as unknown as string))).toBe(
        'ERR_MTLS_CERT_MALFORMED',
      );
    },
  );

  it(
    'mtls_x5t_must_be_canonical_base64url: padding, +/, hex, wrong length and non-zero trailing bits are ' +
      'malformed',
    () => {
      const last = cert.x5tS256.at(-1)!;
      const flipped = cert.x5tS256.slice(0, 42) + String.fromCharCode(last.charCodeAt(0) + 1); // E -> F: low bits set
      for (const x of [
        cert.x5tS256 + '=',
        cert.x5tS256.replace(/-/g, '+'),
        HEX,
        cert.x5tS256.slice(0, 42),
        '',
        flipped,
      ]) {
        expect(codeOfSync(() => checkCertificateBinding(bound(x), HEX))).toBe('ERR_MTLS_CERT_MALFORMED');
      }
    },
  );

  it('mtls_binding_any_bit_differs: every single-bit change of the presented digest is a mismatch (fast-check)', () => {
    const digest = Uint8Array.from({ length: 32 }, (_, i) => parseInt(HEX.slice(2 * i, 2 * i + 2), 16));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), fc.boolean(), (bit, upper) => {
        const other = digest.slice();
        other[bit >> 3]! ^= 1 << (bit & 7);
        const h = upper ? hex(other).toUpperCase() : hex(other);
        return codeOfSync(() => checkCertificateBinding(bound(cert.x5tS256), h)) === 'ERR_MTLS_BINDING_MISMATCH';
      }),
      { numRuns: 256 },
    );
  });

  it('its messages never carry the token thumbprint or the fingerprint', () => {
    for (const f of [HEX.replace(/^./, 'f'), 'zz' + HEX.slice(2)]) {
      try {
        checkCertificateBinding(bound(cert.x5tS256), f);
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(JwtError);
        expect((e as Error).message).not.toContain(cert.x5tS256);
        expect((e as Error).message).not.toContain(HEX.slice(2));
      }
    }
  });
});
