// RFC 8705 §3.1 certificate-bound access tokens: the token's `cnf["x5t#S256"]` is the
// base64url SHA-256 of the DER client certificate, and must name the certificate the
// client presented on this TLS connection. Cloudflare hands a Worker that digest as
// `request.cf.tlsClientAuth.certFingerprintSHA256`: 64 hex digits (lower case in its
// docs), or "" without a certificate. Both sides become 32 bytes before comparing.

import { decodeSegment } from '../b64.js';
import { ownClaim } from '../claims.js';
import { JwtError, addMessages } from '../errors.js';
import { MTLS_MESSAGES } from '../messages/mtls.js';

// This module raises every certificate-binding code: their messages come with it (src/errors.ts, addMessages).
addMessages(MTLS_MESSAGES);

const SHA256_BYTES = 32;
const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

/**
 * Check that a verified access token is bound to the client certificate of this
 * connection (RFC 8705 §3.1). `certSha256` is the SHA-256 of the DER certificate:
 * either the 64 hex digits Cloudflare gives in `request.cf.tlsClientAuth.certFingerprintSHA256`
 * (either case; no colons or spaces) or the 32 raw bytes. Throws
 * - ERR_MTLS_CNF_MISSING: the payload has no `cnf` object or no string `cnf["x5t#S256"]`;
 * - ERR_MTLS_CERT_MISSING: `certSha256` is undefined, null or "" (no certificate presented);
 * - ERR_MTLS_CERT_MALFORMED: `x5t#S256` is not canonical base64url of 32 bytes, or
 *   `certSha256` is not 64 hex digits / 32 bytes;
 * - ERR_MTLS_BINDING_MISMATCH: the two name different certificates.
 * The comparison reads every byte whatever differs. Call it only on a verified payload.
 *
 * @example
 * const { payload } = await verifier.verify(accessToken);
 * const fingerprint = request.cf?.tlsClientAuth?.certFingerprintSHA256; // '' without mTLS
 * checkCertificateBinding(payload, fingerprint); // throws ERR_MTLS_* unless cnf["x5t#S256"] names this certificate
 */
export function checkCertificateBinding(
  payload: Readonly<Record<string, unknown>>,
  certSha256: string | Uint8Array | null | undefined,
): void {
  const bound = boundThumbprint(payload);
  if (certSha256 === undefined || certSha256 === null || certSha256 === '') throw new JwtError('ERR_MTLS_CERT_MISSING');
  const presented = presentedDigest(certSha256);
  let diff = 0;
  for (let i = 0; i < SHA256_BYTES; i++) diff |= bound[i]! ^ presented[i]!;
  if (diff !== 0) throw new JwtError('ERR_MTLS_BINDING_MISMATCH', { claim: 'cnf.x5t#S256' });
}

/** The 32 bytes the token's `cnf["x5t#S256"]` names. */
function boundThumbprint(payload: Readonly<Record<string, unknown>>): Uint8Array {
  const cnf = typeof payload === 'object' && payload !== null ? ownClaim(payload, 'cnf') : undefined;
  if (typeof cnf !== 'object' || cnf === null || Array.isArray(cnf))
    throw new JwtError('ERR_MTLS_CNF_MISSING', { claim: 'cnf', reason: 'missing' });
  const x5t = ownClaim(cnf as Record<string, unknown>, 'x5t#S256');
  if (typeof x5t !== 'string') throw new JwtError('ERR_MTLS_CNF_MISSING', { claim: 'cnf.x5t#S256', reason: 'missing' });
  const bytes = x5t.length === 43 ? decodeSegment(x5t, 0, x5t.length) : undefined;
  if (bytes === undefined || bytes.length !== SHA256_BYTES) {
    throw new JwtError('ERR_MTLS_CERT_MALFORMED', {
      claim: 'cnf.x5t#S256',
      reason: 'not base64url of a SHA-256 digest',
    });
  }
  return bytes;
}

/** The presented certificate's digest as 32 bytes, from hex or raw bytes. */
function presentedDigest(certSha256: string | Uint8Array): Uint8Array {
  if (certSha256 instanceof Uint8Array) {
    if (certSha256.length !== SHA256_BYTES)
      throw new JwtError('ERR_MTLS_CERT_MALFORMED', { reason: 'certificate digest is not 32 bytes' });
    return certSha256;
  }
  if (typeof certSha256 !== 'string' || !HEX_SHA256.test(certSha256)) {
    throw new JwtError('ERR_MTLS_CERT_MALFORMED', { reason: 'certificate fingerprint is not 64 hex digits' });
  }
  const out = new Uint8Array(SHA256_BYTES);
  for (let i = 0; i < SHA256_BYTES; i++) out[i] = Number.parseInt(certSha256.slice(2 * i, 2 * i + 2), 16);
  return out;
}
