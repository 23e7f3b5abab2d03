// edgejwt/hmac: createVerifier for HS256/384/512 with one secret. The same verifier as
// the main entry's (src/verify-path.ts, same options, errors and results), built over
// hmac/source.ts's policies, so a Worker that only checks HMAC tokens bundles no JWK,
// CryptoKey, key-set, WebCrypto or JWE code (bench/verify/bundle-size.ts measures it).

import type { Algorithm } from '../algorithms.js';
import type { JWK } from '../keys/entry.js';
import type { PolicySettings } from '../options.js';
import { decodeAllowedOnly } from '../jws-bytes.js';
import { optionsError } from '../options-error.js';
import {
  buildVerifierWith,
  type RawVerifier,
  type Verifier,
  type VerifierOptions,
  type VerifierSettings,
} from '../verify-path.js';
import { NEEDS_MAIN_ENTRY, hmacPolicy } from './source.js';

export type { Verifier, RawVerifier, VerifyResult } from '../verify-path.js';

/**
 * The options of edgejwt/hmac's createVerifier: the main entry's, restricted to one
 * HMAC secret (bytes or an `oct` JWK) and `algorithms` from HS256/384/512.
 * @example
 * const options: HmacVerifierOptions = { algorithms: ['HS256'], key: secretBytes, issuer: 'https://issuer.example' };
 */
export type HmacVerifierOptions = Omit<VerifierSettings, 'issuers' | 'decryption'> &
  Omit<PolicySettings, 'algorithms'> & {
    /** Allowed `alg` values: HS256, HS384, HS512. */
    algorithms: readonly Extract<Algorithm, 'HS256' | 'HS384' | 'HS512'>[];
    /** The secret: bytes (at least as long as the hash: 32 bytes for HS256) or an `oct` JWK. */
    key: Uint8Array | JWK;
  };

/**
 * createVerifier for HMAC tokens only: the same verifier, options, error codes and
 * results as `createVerifier` from 'edgejwt', in a smaller bundle. `jwks`, `issuers`,
 * `decryption`, a CryptoKey or a non-`oct` JWK, and any algorithm other than
 * HS256/384/512 are ERR_OPTIONS_INVALID (use the main entry for those).
 *
 * @example
 * import { createVerifier } from 'edgejwt/hmac';
 *
 * const verifier = createVerifier({
 *   algorithms: ['HS256'],
 *   key: new TextEncoder().encode(env.JWT_SECRET), // at least 32 bytes
 *   issuer: 'https://issuer.example',
 *   audience: 'api://orders',
 * });
 * const { payload } = verifier.verifySync(token); // no promise in any runtime
 */
export function createVerifier(options: HmacVerifierOptions & { rawPayload: true }): RawVerifier;
export function createVerifier(options: HmacVerifierOptions): Verifier;
export function createVerifier(options: HmacVerifierOptions): Verifier | RawVerifier {
  if (typeof options === 'object' && options !== null) {
    const o = options as VerifierOptions;
    if (o.issuers !== undefined) throw optionsError('issuers', NEEDS_MAIN_ENTRY);
    if (o.decryption !== undefined) throw optionsError('decryption', NEEDS_MAIN_ENTRY);
  }
  return buildVerifierWith(options as VerifierOptions, hmacPolicy, decodeAllowedOnly);
}
