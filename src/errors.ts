// One error class for every failure, with a stable `code` that programs switch on.
// Messages are fixed per code (plus a claim or setting name): they never carry
// the token, a key, or any other caller-supplied bytes.

/**
 * The fixed message of each error code (a JwtError's message is this, plus the
 * claim or setting name and a fixed reason where useful).
 *
 * @example
 * ERROR_MESSAGES.ERR_JWT_EXPIRED; // the text a JwtError with that code starts with
 */
export const ERROR_MESSAGES = {
  ERR_JWT_MALFORMED: 'token is not a well-formed compact JWS',
  ERR_JWT_TOO_LARGE: 'token is longer than the allowed maximum',
  ERR_JWS_HEADER_INVALID: 'protected header is invalid',
  ERR_JWS_ALG_NOT_ALLOWED: 'algorithm is not allowed',
  ERR_JWS_CRIT_UNSUPPORTED: 'header lists a critical extension that is not understood',
  ERR_JWS_SIGNATURE_INVALID: 'signature verification failed',
  ERR_JWT_PAYLOAD_INVALID: 'payload is not a JSON object',
  ERR_JWT_EXPIRED: 'token has expired',
  ERR_JWT_NOT_YET_VALID: 'token is not yet valid',
  ERR_JWT_CLAIM_INVALID: 'claim check failed',
  ERR_JWKS_NO_MATCHING_KEY: 'no key matches the token',
  ERR_JWKS_MULTIPLE_MATCHING_KEYS: 'more than one key matches the token',
  ERR_JWKS_FETCH_FAILED: 'key set could not be fetched',
  ERR_JWKS_TIMEOUT: 'key set fetch timed out',
  ERR_JWKS_INVALID: 'key set is malformed',
  ERR_KEY_INVALID: 'key is malformed or unusable',
  ERR_KEY_TOO_SHORT: 'key is shorter than the algorithm requires',
  ERR_KEY_ALG_MISMATCH: 'key cannot be used with this algorithm',
  ERR_ASYNC_REQUIRED: 'this algorithm needs WebCrypto here: call the async form (verify, sign) instead of verifySync/signSync',
  ERR_OPTIONS_INVALID: 'verifier options are invalid',
  ERR_WASM_CORE: 'the Wasm core failed unexpectedly',
  ERR_JWE_HEADER_INVALID: 'JWE protected header is invalid',
  ERR_JWE_ALG_NOT_ALLOWED: 'JWE key management or content encryption algorithm is not allowed',
  ERR_JWE_ZIP_UNSUPPORTED: 'compressed JWE payloads (zip) are not accepted',
  ERR_JWE_CRIT_UNSUPPORTED: 'JWE header lists a critical extension that is not understood',
  ERR_JWE_EPK_INVALID: 'JWE ephemeral public key is invalid or on the wrong curve',
  ERR_JWE_CEK_INVALID: 'JWE carries an encrypted key where its alg has none (dir, ECDH-ES)',
  ERR_JWE_DECRYPTION_FAILED: 'JWE decryption failed',
  ERR_JWE_NESTED_REQUIRED: 'a JWE under public-key encryption must carry a signed JWT (cty JWT)',
  ERR_JWT_PROFILE_MISMATCH: 'token does not meet the JWT access token profile (RFC 9068)',
  ERR_DPOP_PROOF_INVALID: 'DPoP proof is not a well-formed JWS with a JSON header and payload',
  ERR_DPOP_TYP_INVALID: 'DPoP proof typ is not dpop+jwt',
  ERR_DPOP_ALG_NOT_ALLOWED: 'DPoP proof algorithm is not an allowed asymmetric algorithm',
  ERR_DPOP_JWK_INVALID: 'DPoP proof jwk is missing, private, or unusable with its algorithm',
  ERR_DPOP_SIGNATURE_INVALID: 'DPoP proof signature does not verify under its jwk',
  ERR_DPOP_HTM_MISMATCH: 'DPoP proof htm does not match the request method',
  ERR_DPOP_HTU_MISMATCH: 'DPoP proof htu does not match the request URL',
  ERR_DPOP_IAT_INVALID: 'DPoP proof iat is missing or outside the accepted window',
  ERR_DPOP_JTI_INVALID: 'DPoP proof jti is missing or not a usable string',
  ERR_DPOP_ATH_MISMATCH: 'DPoP proof ath is missing or does not match the access token',
  ERR_DPOP_NONCE_MISMATCH: 'DPoP proof nonce is missing or not the expected one',
  ERR_DPOP_BINDING_MISMATCH: 'access token is not bound to the DPoP proof key (cnf.jkt)',
  ERR_MTLS_CNF_MISSING: 'access token is not bound to a client certificate (cnf.x5t#S256)',
  ERR_MTLS_CERT_MISSING: 'no client certificate was presented',
  ERR_MTLS_CERT_MALFORMED: 'certificate thumbprint is malformed',
  ERR_MTLS_BINDING_MISMATCH: 'access token is bound to another client certificate',
} as const;

/**
 * The stable code of a JwtError (docs/api.md lists when each is raised).
 *
 * @example
 * const code: JwtErrorCode = 'ERR_JWT_EXPIRED';
 */
export type JwtErrorCode = keyof typeof ERROR_MESSAGES;

/**
 * What a JwtError adds to its code: never a token or a key.
 *
 * @example
 * new JwtError('ERR_OPTIONS_INVALID', { setting: 'algorithms', reason: 'a non-empty allow-list is required' });
 */
export interface JwtErrorDetails {
  /** The claim that failed (ERR_JWT_CLAIM_INVALID and friends). */
  claim?: string;
  /** The option or setting that is wrong (ERR_OPTIONS_INVALID). */
  setting?: string;
  /** A fixed, non-sensitive explanation appended to the default message. */
  reason?: string;
  cause?: unknown;
}

/**
 * Every failure of the library: a stable `code` to switch on, and a message that
 * never carries the token, a key or other caller-supplied bytes.
 *
 * @example
 * try {
 *   await verifier.verify(token);
 * } catch (e) {
 *   if (e instanceof JwtError && e.code === 'ERR_JWT_EXPIRED') return new Response('expired', { status: 401 });
 *   throw e;
 * }
 */
export class JwtError extends Error {
  readonly code: JwtErrorCode;
  readonly claim: string | undefined;
  readonly setting: string | undefined;

  constructor(code: JwtErrorCode, details: JwtErrorDetails = {}) {
    const base: string = ERROR_MESSAGES[code];
    const where = details.claim ?? details.setting;
    const message =
      (where !== undefined ? `${base} (${where})` : base) +
      (details.reason !== undefined ? `: ${details.reason}` : '');
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'JwtError';
    this.code = code;
    this.claim = details.claim;
    this.setting = details.setting;
  }
}

/**
 * Is `value` a JwtError (with this `code`, when one is given)? With a code, the
 * type narrows to that code, so `e.code` is the literal in the branch.
 * @example
 * try {
 *   await verifier.verify(token);
 * } catch (e) {
 *   if (isJwtError(e, 'ERR_JWT_EXPIRED')) return refresh(); // e.code: 'ERR_JWT_EXPIRED'
 *   throw e;
 * }
 */
export function isJwtError<C extends JwtErrorCode>(value: unknown, code: C): value is JwtError & { readonly code: C };
export function isJwtError(value: unknown, code?: JwtErrorCode): value is JwtError;
export function isJwtError(value: unknown, code?: JwtErrorCode): value is JwtError {
  return value instanceof JwtError && (code === undefined || value.code === code);
}
