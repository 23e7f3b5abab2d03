// RFC 7638 JWK thumbprints: the hash of a JSON object holding only the members a
// key type requires, in lexicographic order, without whitespace. Synchronous
// everywhere: the hash runs in the Wasm core (digest.ts). DPoP's `jkt` (RFC 9449
// §6) and any "key id from the key" use this one function.

import type { HashName } from '../algorithms.js';
import { encode } from '../b64.js';
import { digest } from '../digest.js';
import { JwtError } from '../errors.js';

// RFC 7638 §3.2: the required members per kty, already in lexicographic order.
const REQUIRED: Readonly<Record<string, readonly string[]>> = Object.freeze({
  EC: ['crv', 'kty', 'x', 'y'],
  OKP: ['crv', 'kty', 'x'],
  RSA: ['e', 'kty', 'n'],
  oct: ['k', 'kty'],
});

/**
 * The RFC 7638 thumbprint of a JWK, base64url without padding: the SHA-256 (or
 * `hash`) of `{"crv":..,"kty":..,"x":..,"y":..}` (EC), `{"crv":..,"kty":..,"x":..}`
 * (OKP), `{"e":..,"kty":..,"n":..}` (RSA) or `{"k":..,"kty":..}` (oct). Other members
 * (`kid`, `alg`, `use`, private members) never change it. A key without a required
 * member, with a member that is not a non-empty string, or of another kty is
 * ERR_KEY_INVALID. The member values are hashed as given: they are not decoded.
 *
 * @example
 * const x = 'l8tFrhx-34tV3hRICRDY9zCkDlpBhF42UQUfWVAWBFs';
 * const y = '9VE4jf_Ok_o64zbTTlcuNJajHmt6v9TDVrU0CdvGRDA';
 * jwkThumbprint({ kty: 'EC', crv: 'P-256', x, y });
 * // '0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I' (RFC 9449 §6.1)
 */
export function jwkThumbprint(jwk: Readonly<Record<string, unknown>> | object, hash: HashName = 'SHA-256'): string {
  return encode(digest(hash, thumbprintInput(jwk)));
}

/**
 * The exact text RFC 7638 hashes for `jwk` (its §3.3 canonical JSON); throws
 * ERR_KEY_INVALID where jwkThumbprint would.
 *
 * @example
 * thumbprintInput({ kty: 'OKP', crv: 'Ed25519', x: 'abc', kid: 'k1' }); // '{"crv":"Ed25519","kty":"OKP","x":"abc"}'
 */
export function thumbprintInput(jwk: Readonly<Record<string, unknown>> | object): string {
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) throw invalid('not a JWK object');
  const k = jwk as Record<string, unknown>;
  const kty = Object.hasOwn(k, 'kty') ? k.kty : undefined;
  const members = typeof kty === 'string' && Object.hasOwn(REQUIRED, kty) ? REQUIRED[kty]! : undefined;
  if (members === undefined) throw invalid('unsupported kty');
  let text = '{';
  for (const [i, name] of members.entries()) {
    const v = Object.hasOwn(k, name) ? k[name] : undefined;
    if (typeof v !== 'string' || v.length === 0) throw invalid(`${name} missing`);
    // JSON.stringify escapes exactly what RFC 7159 requires of a string, nothing more.
    text += (i === 0 ? '' : ',') + JSON.stringify(name) + ':' + JSON.stringify(v);
  }
  return text + '}';
}

function invalid(reason: string): JwtError {
  return new JwtError('ERR_KEY_INVALID', { reason: `thumbprint: ${reason}` });
}
