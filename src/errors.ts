// One error class for every failure, with a stable `code` that programs switch on.
// Messages are fixed per code (plus a claim or setting name): they never carry
// the token, a key, or any other caller-supplied bytes.

import { DPOP_MESSAGES } from './messages/dpop.js';
import { JWE_MESSAGES } from './messages/jwe.js';
import { MTLS_MESSAGES } from './messages/mtls.js';

/**
 * The messages of the codes the verify path raises (and what every bundle with a
 * JwtError carries). The JWE, DPoP and certificate-binding codes keep theirs in
 * src/messages/, registered by the modules that raise them (addMessages).
 */
const VERIFY_MESSAGES = {
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
  ERR_ASYNC_REQUIRED:
    'this algorithm needs WebCrypto here: call the async form (verify, sign) instead of verifySync/signSync',
  ERR_OPTIONS_INVALID: 'verifier options are invalid',
  ERR_WASM_CORE: 'the Wasm core failed unexpectedly',
  ERR_JWT_PROFILE_MISMATCH: 'token does not meet the JWT access token profile (RFC 9068)',
} as const;

/**
 * Messages registered by the modules that raise the other codes (src/jwe/error.ts, src/dpop/error.ts,
 * src/keys/cert-binding.ts).
 */
const registered: Partial<Record<string, string>> = {};

/**
 * Make the messages of `table` known to JwtError. Called at the top of each module that
 * raises codes outside VERIFY_MESSAGES, so a bundle carries the messages of exactly the
 * codes its code can raise. Internal (not exported by the package).
 * @example
 * addMessages(JWE_MESSAGES);
 */
export function addMessages(table: Readonly<Record<string, string>>): void {
  Object.assign(registered, table);
}

/** Every code with its message, in the order docs/api.md lists them (and ERROR_MESSAGES always had). */
function allMessages(): typeof VERIFY_MESSAGES & typeof JWE_MESSAGES & typeof DPOP_MESSAGES & typeof MTLS_MESSAGES {
  const { ERR_JWT_PROFILE_MISMATCH, ...verify } = VERIFY_MESSAGES;
  const all = { ...verify, ...JWE_MESSAGES, ERR_JWT_PROFILE_MISMATCH, ...DPOP_MESSAGES, ...MTLS_MESSAGES };
  // Whoever reads the whole table gets every message on a JwtError too (a code made by hand included).
  addMessages(all);
  return all;
}

/**
 * The fixed message of each error code (a JwtError's message is this, plus the
 * claim or setting name and a fixed reason where useful). Importing it brings every
 * message into a bundle; a JwtError alone carries only those of the codes the bundled
 * code raises.
 *
 * @example
 * ERROR_MESSAGES.ERR_JWT_EXPIRED; // the text a JwtError with that code starts with
 */
export const ERROR_MESSAGES: typeof VERIFY_MESSAGES &
  typeof JWE_MESSAGES &
  typeof DPOP_MESSAGES &
  typeof MTLS_MESSAGES = /* @__PURE__ */ allMessages();

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
    // A code whose module is not in this bundle (only a JwtError made by hand can have one) keeps its code as the
    // message.
    const base: string = (VERIFY_MESSAGES as Partial<Record<string, string>>)[code] ?? registered[code] ?? code;
    const where = details.claim ?? details.setting;
    const message =
      (where !== undefined ? `${base} (${where})` : base) + (details.reason !== undefined ? `: ${details.reason}` : '');
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
