// RSA public parameters that make forgery trivial, refused wherever an RSA key
// enters: with e = 1 the PKCS#1 v1.5 encoding of a hash is its own signature;
// an even e is not coprime to phi(n), so no private key exists for it; an even
// modulus is not a product of two odd primes. Some backends (node:crypto) import
// such keys without a word, so the check is ours.

import { decodeSegment } from '../b64.js';
import { JwtError } from '../errors.js';

/**
 * Throws ERR_KEY_INVALID when the big-endian exponent `e` is even or below 3, or
 * the modulus `n` is even (or empty).
 *
 * @example
 * checkRsaParams(modulusBytes, new Uint8Array([1, 0, 1])); // e = 65537: fine
 * checkRsaParams(modulusBytes, new Uint8Array([1])); // throws ERR_KEY_INVALID
 */
export function checkRsaParams(n: Uint8Array, e: Uint8Array): void {
  if (n.length === 0 || (n[n.length - 1]! & 1) === 0)
    throw new JwtError('ERR_KEY_INVALID', { reason: 'RSA modulus is even' });
  if (e.length === 0 || (e[e.length - 1]! & 1) === 0)
    throw new JwtError('ERR_KEY_INVALID', { reason: 'RSA exponent is even' });
  let high = 0;
  for (let i = 0; i < e.length - 1; i++) high |= e[i]!;
  if (high === 0 && e[e.length - 1]! < 3) throw new JwtError('ERR_KEY_INVALID', { reason: 'RSA exponent below 3' });
}

/**
 * checkRsaParams on the base64url `n` and `e` of an RSA JWK (a value that does not
 * decode is refused too).
 *
 * @example
 * checkRsaJwk({ n: jwk.n, e: 'AQ' }); // throws ERR_KEY_INVALID: e = 1
 */
export function checkRsaJwk(jwk: { n?: unknown; e?: unknown }): void {
  const n = typeof jwk.n === 'string' ? decodeSegment(jwk.n, 0, jwk.n.length) : undefined;
  const e = typeof jwk.e === 'string' ? decodeSegment(jwk.e, 0, jwk.e.length) : undefined;
  if (n === undefined || e === undefined)
    throw new JwtError('ERR_KEY_INVALID', { reason: 'RSA n or e is not base64url' });
  checkRsaParams(n, e);
}

/**
 * The exponent a WebCrypto RSA key carries in its `algorithm` (the modulus is not
 * there: backends check it where they can read it).
 *
 * @example
 * checkRsaExponent((cryptoKey.algorithm as RsaHashedKeyAlgorithm).publicExponent); // throws for e = 1
 */
export function checkRsaExponent(publicExponent: Uint8Array | undefined): void {
  if (publicExponent === undefined) throw new JwtError('ERR_KEY_INVALID', { reason: 'RSA exponent missing' });
  checkRsaParams(ODD_MODULUS, publicExponent);
}

// Stands in for the modulus when only the exponent is being checked.
const ODD_MODULUS = new Uint8Array([1]);
