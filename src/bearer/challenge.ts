// The answers to a request that fails bearer authentication (RFC 6750 §3):
// fixed public texts, quoted-string values escaped, JSON bodies, never any part
// of the token. The guard sends them; the Hono middleware throws them. A
// protected resource with RFC 9728 metadata points to it from each challenge
// (`resource_metadata`), and a step-up refusal (RFC 9470) names what the client
// must ask its authorization server for (`acr_values`, `max_age`).

import type { JwtErrorCode } from '../errors.js';

/** Which refusal: decides the status, the `error` code and the challenge. */
export type ChallengeKind =
  | 'missing'
  | 'invalid_request'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'insufficient_user_authentication'
  | 'unavailable';

const STATUS: Record<ChallengeKind, number> = {
  missing: 401,
  invalid_request: 400,
  invalid_token: 401,
  insufficient_scope: 403,
  // RFC 9470 §3: the token is fine, the authentication behind it is not; the client must get a new one.
  insufficient_user_authentication: 401,
  unavailable: 503,
};

/** The HTTP status each kind is sent with. */
export function challengeStatus(kind: ChallengeKind): number {
  return STATUS[kind];
}

/**
 * RFC 7230 quoted-string: backslash-escape `"` and `\`; drop anything that is not printable ASCII.
 * @example quote('api "v1"') // '"api \\"v1\\""'
 */
export function quote(value: string): string {
  return `"${value.replace(/[^\x20-\x7e]/g, '').replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/** Codes that mean the issuer's keys could not be had: not the client's fault (503). */
export const KEYS_UNAVAILABLE_CODES: ReadonlySet<JwtErrorCode> = new Set<JwtErrorCode>([
  'ERR_JWKS_FETCH_FAILED',
  'ERR_JWKS_TIMEOUT',
  'ERR_JWKS_INVALID',
]);

/**
 * True when a verify failure is the issuer's side, not the token's.
 * @example keysUnavailable(err.code) ? 503 : 401
 */
export function keysUnavailable(code: JwtErrorCode): boolean {
  return KEYS_UNAVAILABLE_CODES.has(code);
}

/**
 * Codes that mean the verifier itself failed (the Wasm core, the options it was
 * built with, a sync call where a step must wait): neither the token's fault nor
 * the issuer's. A guard answers them with a 500 and a log line, never a 401.
 */
export const SERVER_FAULT_CODES: ReadonlySet<JwtErrorCode> = new Set<JwtErrorCode>([
  'ERR_WASM_CORE',
  'ERR_OPTIONS_INVALID',
  'ERR_ASYNC_REQUIRED',
]);

/**
 * True when a verify failure is a fault of the server (see SERVER_FAULT_CODES), not of the caller.
 * @example serverFault(err.code) ? 500 : keysUnavailable(err.code) ? 503 : 401
 */
export function serverFault(code: JwtErrorCode): boolean {
  return SERVER_FAULT_CODES.has(code);
}

/**
 * Retry-After for a 503: the JWKS cooldown, because no new fetch of the keys is tried
 * before it ends (the library's default cooldown is 30 s). Rounded up, at least 1.
 * @example retryAfterSeconds(30_000) // 30
 */
export function retryAfterSeconds(cooldownMs = DEFAULT_COOLDOWN_MS): number {
  return Math.max(1, Math.ceil(cooldownMs / 1000));
}

/** The library's default `cooldownDuration` for a remote key set. */
export const DEFAULT_COOLDOWN_MS = 30_000;

/**
 * What the client is told about a bad token: coarse on purpose; the code goes to the log.
 * @example publicDescription('ERR_JWT_EXPIRED') // 'The access token expired'
 */
export function publicDescription(code: JwtErrorCode | undefined): string {
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return 'The access token expired';
    case 'ERR_JWT_NOT_YET_VALID':
      return 'The access token is not valid yet';
    default:
      return 'The access token is invalid';
  }
}

/** The fixed description for the kinds that have only one. */
export const DESCRIPTIONS = {
  missing: 'An access token is required',
  invalid_request: 'The access token is malformed',
  insufficient_scope: 'The access token lacks a required scope',
  insufficient_claim: 'The access token lacks a required claim',
  insufficient_user_authentication: 'A stronger or more recent user authentication is required',
  unavailable: 'Signing keys are unavailable',
  unproven_confirmation: 'The access token is bound to a key the request did not prove',
} as const;

export interface ChallengeOptions {
  realm: string;
  /** Public text (one of the fixed descriptions above); defaults per kind. */
  description?: string;
  /** For insufficient_scope: the scopes the resource needs. */
  scopes?: readonly string[];
  /** RFC 9728 §5.1: the absolute URL of the resource's metadata, added to every challenge. */
  resourceMetadata?: string | undefined;
  /** For insufficient_user_authentication (RFC 9470 §3): the acceptable `acr` values. */
  acrValues?: readonly string[] | undefined;
  /** For insufficient_user_authentication (RFC 9470 §3): the largest accepted age of the authentication, seconds. */
  maxAge?: number | undefined;
  /** For unavailable: seconds, default the library's JWKS cooldown. */
  retryAfter?: number;
}

/**
 * The headers of every JSON refusal (this module's, the guard's own answers, DPoP's): one object
 * to copy, so the text is in a bundle once.
 * @example new Response('{}', { status: 400, headers: JSON_NO_STORE })
 */
export const JSON_NO_STORE: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
});

/**
 * The full response for a refusal.
 * @example challengeResponse('missing', { realm: 'api' }) // 401, WWW-Authenticate: Bearer realm="api"
 */
export function challengeResponse(kind: ChallengeKind, options: ChallengeOptions): Response {
  const description = options.description ?? defaultDescription(kind);
  const headers: Record<string, string> = { ...JSON_NO_STORE };
  const challenge = challengeHeader(kind, options);
  if (challenge !== undefined) headers['www-authenticate'] = challenge;
  else headers['retry-after'] = String(options.retryAfter ?? retryAfterSeconds());
  const error = kind === 'missing' ? 'unauthorized' : kind === 'unavailable' ? 'temporarily_unavailable' : kind;
  return new Response(JSON.stringify({ error, error_description: description }), { status: STATUS[kind], headers });
}

/**
 * The `WWW-Authenticate` value for a refusal, or undefined for `unavailable` (a 503 carries none). Every value
 * is a quoted-string made by `quote`, so no configured or derived text can end the parameter early. Parameters
 * in a fixed order: realm, error, error_description, scope, acr_values, max_age, resource_metadata.
 *
 * @example
 * challengeHeader('insufficient_user_authentication', { realm: 'api', maxAge: 300 });
 * // 'Bearer realm="api", error="insufficient_user_authentication", error_description="...", max_age="300"'
 */
export function challengeHeader(kind: ChallengeKind, options: ChallengeOptions): string | undefined {
  if (kind === 'unavailable') return undefined;
  let value = `Bearer realm=${quote(options.realm)}`;
  // RFC 6750 §3.1: no error code when the request carried no bearer credentials at all.
  if (kind !== 'missing') {
    value += `, error="${kind}", error_description=${quote(options.description ?? defaultDescription(kind))}`;
    const scopes = options.scopes ?? [];
    if (kind === 'insufficient_scope' && scopes.length > 0) value += `, scope=${quote(scopes.join(' '))}`;
    if (kind === 'insufficient_user_authentication') {
      const acr = options.acrValues ?? [];
      if (acr.length > 0) value += `, acr_values=${quote(acr.join(' '))}`;
      // Only a whole number of seconds is a max_age (OIDC Core §3.1.2.1); anything else is left out.
      const age = options.maxAge;
      if (age !== undefined && Number.isSafeInteger(age) && age >= 0) value += `, max_age="${age}"`;
    }
  }
  if (options.resourceMetadata !== undefined) value += `, resource_metadata=${quote(options.resourceMetadata)}`;
  return value;
}

function defaultDescription(kind: ChallengeKind): string {
  if (kind === 'invalid_token') return publicDescription(undefined);
  return DESCRIPTIONS[kind];
}
