// The `decryption` option of createVerifier as a value made by jweDecryption(): the
// verifier reaches src/jwe/ only through the helpers this value carries, so a bundle
// that never calls jweDecryption carries no JWE code (bench/verify/bundle-size.ts).
// Only the wiring lives here; decrypting is decrypt.ts's.

import { isSymmetric, type KeyManagement } from './algorithms.js';
import { createDecryptor, isCompactJwe, type DecryptionOptions, type Decryptor } from './decrypt.js';
import { checkReplicated } from './replicated.js';

/**
 * What the verify path calls of src/jwe/ (docs/architecture.md, "The JWE path").
 *
 * @example
 * const support: JweSupport = { createDecryptor, isCompactJwe, isSymmetric, checkReplicated };
 */
export interface JweSupport {
  createDecryptor(options: DecryptionOptions, maxLength: number): Decryptor;
  isCompactJwe(token: unknown): token is string;
  isSymmetric(alg: KeyManagement): boolean;
  /** Throws when the JWE header replicates `iss`, `sub` or `aud` with another value than the payload's. */
  checkReplicated(header: Readonly<Record<string, unknown>>, payload: Readonly<Record<string, unknown>>): void;
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

const SUPPORT: JweSupport = Object.freeze({ createDecryptor, isCompactJwe, isSymmetric, checkReplicated });

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
 *   decryption: jweDecryption({ keys: [recipientPrivateJwk], algorithms: ['ECDH-ES+A256KW'], encryptions: ['A256GCM'] }),
 * });
 * const { payload } = await verifier.verify(jweOrJws);
 */
export function jweDecryption(options: DecryptionOptions): JweDecryption {
  return Object.freeze({ options, support: SUPPORT });
}
