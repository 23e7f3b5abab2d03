// The `decryption` option of createVerifier as a value made by jweDecryption(): the
// verifier reaches src/jwe/ only through the helpers this value carries, so a bundle
// that never calls jweDecryption carries no JWE code (bench/verify/bundle-size.ts).
// Only the wiring lives here; decrypting is decrypt.ts's.

import { createDecryptor, isCompactJwe, type DecryptionOptions } from './decrypt.js';
import { jweStep, type JweHost, type JwePolicy, type JweStep } from './verify-step.js';

/**
 * What the verify path calls of src/jwe/ (docs/decisions/0013-jwe-refusals.md): the
 * JWE step of one verifier, its options checked (ERR_OPTIONS_INVALID naming `decryption.…`).
 *
 * @example
 * const step = support.createStep(options, maxTokenLength, host);
 */
export interface JweSupport {
  createStep<R extends { readonly payload: unknown }, P extends JwePolicy>(
    options: DecryptionOptions,
    maxLength: number,
    host: JweHost<R, P>,
  ): JweStep<R>;
}

/**
 * createVerifier's `decryption` option, made by jweDecryption. The options are
 * checked when the verifier is built (ERR_OPTIONS_INVALID naming `decryption.…`).
 *
 * @example
 * const decryption: JweDecryption = jweDecryption({ keys: [recipientPrivateJwk] });
 */
export interface JweDecryption {
  /** The options given to jweDecryption. */
  readonly options: DecryptionOptions;
  /** The JWE code the verifier calls; internal, present so that only a bundle that made this value carries it. */
  readonly support: JweSupport;
}

const SUPPORT: JweSupport = Object.freeze({
  createStep: <R extends { readonly payload: unknown }, P extends JwePolicy>(
    options: DecryptionOptions,
    maxLength: number,
    host: JweHost<R, P>,
  ): JweStep<R> => jweStep(createDecryptor(options, maxLength), isCompactJwe, host),
});

/**
 * Let a verifier accept compact JWE (RFC 7516) as well: pass the result as
 * createVerifier's `decryption`. A separate export so that a Worker that never
 * decrypts does not bundle the JWE code.
 *
 * @example
 * import { createVerifier, jweDecryption } from 'edgejwt';
 *
 * const verifier = createVerifier({
 *   algorithms: ['ES256'],
 *   jwks,
 *   decryption: jweDecryption({
 *     keys: [recipientPrivateJwk],
 *     algorithms: ['ECDH-ES+A256KW'],
 *     encryptions: ['A256GCM'],
 *   }),
 * });
 * const { payload } = await verifier.verify(jweOrJws);
 */
export function jweDecryption(options: DecryptionOptions): JweDecryption {
  return Object.freeze({ options, support: SUPPORT });
}
