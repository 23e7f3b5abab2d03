// createVerifier, the public entry to the verify path (verify-path.ts). It imports no
// JWE code: the `decryption` option is a value made by jweDecryption (src/jwe/decryption.ts),
// which carries it, so a bundle that never decrypts leaves src/jwe/ out.

import { buildVerifier, type RawVerifier, type Verifier, type VerifierOptions } from './verify-path.js';

export type {
  Verifier,
  RawVerifier,
  VerifierOptions,
  VerifierSettings,
  MultiIssuerOptions,
  VerifyResult,
  IssuerPolicy,
} from './verify-path.js';

/**
 * Build a verifier for one issuer's tokens (or several, with `issuers`). Options,
 * algorithms and each key's shape, length and fit are checked here (a mistake throws
 * now); the costly checks and imports of a key (an EC point on its curve, RSA
 * parameters, the Ed25519 and backend imports) wait for the first verify that selects
 * it, so an issuer no token names costs nothing. `await verifier.prepare()` does them
 * all now and reports every key that fails. Every failure at verify time is a JwtError
 * with a stable `code`.
 *
 * @example
 * import { createVerifier, createRemoteJWKSet } from 'edgejwt';
 *
 * const verifier = createVerifier({
 *   algorithms: ['RS256', 'EdDSA'],
 *   jwks: createRemoteJWKSet('https://issuer.example/.well-known/jwks.json'),
 *   issuer: 'https://issuer.example',
 *   audience: 'api://orders',
 * });
 * const { payload, header } = await verifier.verify(token);
 *
 * @example
 * // HS256 with a raw secret: verifySync needs no promise in any runtime.
 * const hs = createVerifier({ algorithms: ['HS256'], key: new TextEncoder().encode(secret) });
 * const { payload } = hs.verifySync(token);
 *
 * @example
 * // Construction-time failures for every key, e.g. at start-up or in a deploy check.
 * const all = createVerifier({ issuers: [issuerA, issuerB] });
 * await all.prepare(); // rejects with an AggregateError of one JwtError per key that cannot be built
 */
export function createVerifier(options: VerifierOptions & { rawPayload: true }): RawVerifier;
export function createVerifier(options: VerifierOptions): Verifier;
export function createVerifier(options: VerifierOptions): Verifier | RawVerifier {
  return buildVerifier(options);
}
