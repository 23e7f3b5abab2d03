// JWT claim checks (RFC 7519 §4.1), run only after the signature verified.
// Time claims must be finite numbers; `exp` is required unless turned off;
// a configured audience requires an `aud`.

import { JwtError } from './errors.js';
import type { JoseHeader } from './header.js';

/**
 * A verified JWT claims set (RFC 7519 §4): the registered claims typed, the rest
 * unknown. Frozen when it comes from the verify cache.
 *
 * @example
 * const { payload } = await verifier.verify<JWTPayload & { scope?: string }>(token);
 * payload.sub; // string | undefined
 */
export type JWTPayload = Readonly<Record<string, unknown>> & {
  readonly iss?: string;
  readonly sub?: string;
  readonly aud?: string | readonly string[];
  readonly exp?: number;
  readonly nbf?: number;
  readonly iat?: number;
  readonly jti?: string;
};

export interface ClaimPolicy {
  issuer: ReadonlySet<string> | undefined;
  audience: ReadonlySet<string> | undefined;
  subject: string | undefined;
  /** Normalised (lower case, no `application/`). */
  typ: string | undefined;
  /** Seconds. */
  clockTolerance: number;
  /** Seconds, or undefined. */
  maxTokenAge: number | undefined;
  requiredClaims: readonly string[];
  requireExp: boolean;
  /** RFC 9068's JWT access token profile, when asked for. */
  profile: 'at+jwt' | undefined;
}

/**
 * The claim `name` when the payload itself carries it; never a name inherited
 * from Object.prototype (`toString`, `constructor`, ...).
 *
 * @example
 * ownClaim({ sub: 'alice' }, 'sub'); // 'alice'
 * ownClaim({}, 'toString'); // undefined
 */
export function ownClaim(payload: Readonly<Record<string, unknown>>, name: string): unknown {
  return Object.hasOwn(payload, name) ? payload[name] : undefined;
}

function claimError(claim: string, reason: string): JwtError {
  return new JwtError('ERR_JWT_CLAIM_INVALID', { claim, reason });
}

function numeric(payload: Record<string, unknown>, name: 'exp' | 'nbf' | 'iat'): number | undefined {
  const v = ownClaim(payload, name);
  if (v === undefined) return undefined;
  // Strings, booleans, 1e400 (parsed as Infinity) and friends are never times.
  if (typeof v !== 'number' || !Number.isFinite(v)) throw claimError(name, 'must be a finite number');
  return v;
}

/**
 * A `typ` or `cty` value in the one form they are compared in (RFC 7515 §4.1.9): lower
 * case, and `application/` dropped only when no other `/` follows, because
 * `application/a/b` is not `a/b` (a value with a `/` is a full media type).
 *
 * @example
 * normaliseTyp('application/AT+JWT'); // 'at+jwt'
 * normaliseTyp('application/example/jwt'); // 'application/example/jwt'
 */
export function normaliseTyp(typ: string): string {
  const t = typ.toLowerCase();
  return t.startsWith('application/') && !t.includes('/', 12) ? t.slice(12) : t;
}

/** Time checks alone, also re-run on every cache hit. `now` in seconds. */
function checkTimes(payload: Record<string, unknown>, policy: ClaimPolicy, now: number): void {
  const tol = policy.clockTolerance;
  const exp = numeric(payload, 'exp');
  const nbf = numeric(payload, 'nbf');
  const iat = numeric(payload, 'iat');
  if (exp === undefined) {
    if (policy.requireExp) throw claimError('exp', 'missing');
  } else if (exp <= now - tol) {
    throw new JwtError('ERR_JWT_EXPIRED');
  }
  if (nbf !== undefined && nbf > now + tol) throw new JwtError('ERR_JWT_NOT_YET_VALID');
  if (policy.maxTokenAge !== undefined) {
    if (iat === undefined) throw claimError('iat', 'missing');
    const age = now - iat;
    if (age < -tol) throw claimError('iat', 'in the future');
    // iat + maxTokenAge is an expiry like exp (RFC 7519 §4.1.4: refused on or after it), tolerance alike.
    if (age - tol >= policy.maxTokenAge) throw new JwtError('ERR_JWT_EXPIRED', { reason: 'older than maxTokenAge' });
  }
}

/**
 * The clock window (ms) in which checkTimes passes for this payload, for a cache
 * (the verifier's, the guard's L1): a hit is a pair of comparisons. Only for a payload
 * that passed checkClaims under the same tolerance and max age: `from <= now < until`, in ms.
 */
export function timeWindow(
  payload: JWTPayload,
  policy: Pick<ClaimPolicy, 'clockTolerance' | 'maxTokenAge'>,
): { from: number; until: number } {
  const tol = policy.clockTolerance;
  let from = -Infinity;
  let until = Infinity;
  // Only called once checkTimes passed: each of these is absent or a finite number.
  const exp = ownClaim(payload, 'exp') as number | undefined;
  const nbf = ownClaim(payload, 'nbf') as number | undefined;
  if (exp !== undefined) until = (exp + tol) * 1000;
  if (nbf !== undefined) from = (nbf - tol) * 1000;
  if (policy.maxTokenAge !== undefined) {
    const iat = ownClaim(payload, 'iat') as number;
    from = Math.max(from, (iat - tol) * 1000);
    until = Math.min(until, (iat + policy.maxTokenAge + tol) * 1000);
  }
  return { from, until };
}

export function checkClaims(
  payload: Record<string, unknown>,
  header: JoseHeader,
  policy: ClaimPolicy,
  now: number,
): void {
  // The profile first: a token missing a claim it requires fails as not an access token.
  if (policy.profile === 'at+jwt') checkAccessTokenProfile(payload, header);
  checkTimes(payload, policy, now);
  if (policy.issuer !== undefined) {
    const iss = ownClaim(payload, 'iss');
    if (typeof iss !== 'string' || !policy.issuer.has(iss)) throw claimError('iss', 'unexpected issuer');
  }
  if (policy.audience !== undefined) {
    const aud = ownClaim(payload, 'aud');
    let ok = false;
    if (typeof aud === 'string') ok = policy.audience.has(aud);
    else if (Array.isArray(aud)) {
      for (const a of aud) {
        if (typeof a !== 'string') throw claimError('aud', 'must be a string or an array of strings');
        if (policy.audience.has(a)) ok = true;
      }
    }
    if (!ok) throw claimError('aud', aud === undefined ? 'missing' : 'unexpected audience');
  }
  if (policy.subject !== undefined && ownClaim(payload, 'sub') !== policy.subject)
    throw claimError('sub', 'unexpected subject');
  if (policy.typ !== undefined) {
    const typ = ownClaim(header, 'typ');
    if (typeof typ !== 'string' || normaliseTyp(typ) !== policy.typ) throw claimError('typ', 'unexpected type');
  }
  for (const name of policy.requiredClaims) {
    if (ownClaim(payload, name) === undefined) throw claimError(name, 'missing');
  }
}

// RFC 9068 §2.2: the claims every JWT access token carries, and their JSON types
// (exp and iat are held to finite numbers by checkTimes, aud by the audience check).
const PROFILE_STRINGS = ['iss', 'sub', 'client_id', 'jti'] as const;

/** RFC 9068 §2.1, §2.2, §4: typ at+jwt, and iss, exp, aud, sub, client_id, iat, jti present. */
function checkAccessTokenProfile(payload: Record<string, unknown>, header: JoseHeader): void {
  const typ = ownClaim(header, 'typ');
  if (typeof typ !== 'string' || normaliseTyp(typ) !== 'at+jwt')
    throw profileError('typ', typ === undefined ? 'missing' : 'not at+jwt');
  for (const name of PROFILE_STRINGS) {
    const v = ownClaim(payload, name);
    if (typeof v !== 'string') throw profileError(name, v === undefined ? 'missing' : 'not a string');
  }
  for (const name of ['exp', 'aud', 'iat'] as const) {
    if (ownClaim(payload, name) === undefined) throw profileError(name, 'missing');
  }
}

function profileError(claim: string, reason: string): JwtError {
  return new JwtError('ERR_JWT_PROFILE_MISMATCH', { claim, reason });
}
