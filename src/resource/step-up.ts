// Step-up authentication (RFC 9470): a rule may ask how the user behind a token
// authenticated (`acr`, one of a list) and how long ago (`auth_time`, at most
// `maxAge` seconds before now). A token that misses either is refused with 401
// `insufficient_user_authentication` naming what the client must ask for; it is
// not an invalid token, so the client gets a new one instead of giving up.

import { ownClaim } from '../claims.js';

/** What a rule asks of the authentication behind a token. */
export interface StepUpNeed {
  /** Acceptable `acr` values; the token's `acr` must be one of them. */
  readonly acr?: readonly string[] | undefined;
  /** Seconds: the token's `auth_time` must be at most this long before now. */
  readonly maxAge?: number | undefined;
}

/** The verdict: passed, or the RFC 9470 challenge parameters (what the rule asks, whichever part failed). */
export type StepUpVerdict =
  | { readonly ok: true }
  | { readonly ok: false; readonly acrValues: readonly string[] | undefined; readonly maxAge: number | undefined };

const PASS: StepUpVerdict = Object.freeze({ ok: true });

type Claims = Readonly<Record<string, unknown>>;

/**
 * Check a verified payload against a rule's step-up need. `now` and `tolerance` in seconds (the guard's
 * `clockTolerance`). `acr` must be an own string claim in `need.acr`; `auth_time` must be an own finite
 * number no later than now + tolerance and no earlier than now - maxAge - tolerance. A missing or
 * malformed claim fails like a wrong one: the client can always fix it by authenticating again.
 *
 * @example
 * checkStepUp({ acr: 'mfa', auth_time: 1_700_000_000 }, { acr: ['mfa'], maxAge: 300 }, 1_700_000_100); // { ok: true }
 * checkStepUp({ acr: 'pwd' }, { acr: ['mfa'] }, 1_700_000_100); // { ok: false, acrValues: ['mfa'], maxAge: undefined }
 */
export function checkStepUp(payload: Claims, need: StepUpNeed, now: number, tolerance = 0): StepUpVerdict {
  if (acrMet(payload, need.acr) && ageMet(payload, need.maxAge, now, tolerance)) return PASS;
  return { ok: false, acrValues: need.acr, maxAge: need.maxAge };
}

function acrMet(payload: Claims, wanted: readonly string[] | undefined): boolean {
  if (wanted === undefined) return true;
  const acr = ownClaim(payload, 'acr');
  return typeof acr === 'string' && wanted.includes(acr);
}

function ageMet(payload: Claims, maxAge: number | undefined, now: number, tolerance: number): boolean {
  if (maxAge === undefined) return true;
  const at = ownClaim(payload, 'auth_time');
  // A string, a boolean, 1e400 (parsed as Infinity) or a time in the future never proves a recent login.
  if (typeof at !== 'number' || !Number.isFinite(at) || at > now + tolerance) return false;
  return now - at <= maxAge + tolerance;
}
