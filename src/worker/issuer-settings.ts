// One issuer entry of a checked config as the library's policy settings (no key), and the
// two things every way of building the guard's verifier shares: the ConfigError a library
// refusal becomes, and the check that a deploy-time policy literal (policy-literal.ts)
// still says what the config says. Imports no option-checking code: a compiled entry
// bundles this module, not policy-literal.ts.

import type { Algorithm } from '../algorithms.js';
import { normaliseTyp, type ClaimPolicy } from '../claims.js';
import { isJwtError } from '../errors.js';
import type { PolicyData, PolicySettings } from '../options.js';
import { ConfigError } from './config-error.js';
import type { IssuerConfig } from './issuers-config.js';

/**
 * The library settings of one issuer entry: what the guard checks through the library.
 * An entry bound by `claims` alone has no audience for the library to check (the guard
 * checks the claims); the algorithms were checked against the table when the config was parsed.
 *
 * @example
 * issuerSettings(config.issuers[0]); // { issuer: 'https://id.example', audience: ['api'], algorithms: ['RS256'] }
 */
export function issuerSettings(is: IssuerConfig): PolicySettings {
  return {
    issuer: is.issuer.length === 1 ? is.issuer[0]! : is.issuer,
    ...(is.audience.length === 0 ? {} : { audience: is.audience }),
    algorithms: is.algorithms as Algorithm[],
    ...(is.typ === undefined ? {} : { typ: is.typ }),
    ...(is.profile === undefined ? {} : { profile: is.profile }),
    // The library refuses an older iat, and with it an iat in the future (beyond clockTolerance).
    ...(is.maxTokenAge === undefined ? {} : { maxTokenAge: is.maxTokenAge }),
  };
}

/**
 * What the library's refusal of an issuer's settings or key becomes: a ConfigError naming
 * the setting (anything else is returned as it is).
 *
 * @example
 * try { verifier = build(); } catch (e) { throw issuersError(e); }
 */
export function issuersError(e: unknown): unknown {
  if (isJwtError(e) || e instanceof TypeError) return new ConfigError(isJwtError(e) && e.setting !== undefined ? `issuers (${e.setting})` : 'issuers', isJwtError(e) ? e.message : 'invalid key');
  return e;
}

/**
 * Whether a checked policy says exactly what the config entry says: the same algorithms in
 * order, and every claim setting as the library makes it from issuerSettings(is) and the
 * config's clockTolerance (`iss` names, audience, typ, maxTokenAge, profile, exp required,
 * no subject or required claims). A compiled entry's policy literal that does not is refused
 * (build.ts): it would lend an issuer's key to another issuer's or audience's tokens, or
 * accept what the config refuses (no exp, an older iat, another typ).
 *
 * @example
 * bindsAsConfigured(config.issuers[0], policies[0], config.clockTolerance); // true for an entry build-guard wrote
 */
export function bindsAsConfigured(is: IssuerConfig, data: PolicyData, clockTolerance: number): boolean {
  const claims = (data as PolicyData | undefined)?.claims as Record<string, unknown> | undefined;
  if (typeof claims !== 'object' || claims === null || !same(is.algorithms, data.algorithms)) return false;
  // What claimPolicy makes of issuerSettings(is) under the config's clockTolerance. Typed: a member the
  // library adds to ClaimPolicy does not compile here (an optional one refuses every literal) until it is named.
  const want: ClaimPolicy = {
    issuer: new Set(is.issuer),
    audience: is.audience.length === 0 ? undefined : new Set(is.audience),
    subject: undefined,
    typ: is.typ === undefined ? undefined : normaliseTyp(is.typ),
    clockTolerance,
    maxTokenAge: is.maxTokenAge,
    requiredClaims: [],
    requireExp: true,
    profile: is.profile,
  };
  const names = Object.keys(want);
  // No member missing or extra: a literal of another shape (an older or newer build-guard) is refused, not half read.
  return Object.keys(claims).length === names.length && names.every((n) => Object.hasOwn(claims, n) && same(want[n as keyof ClaimPolicy], claims[n]));
}

/** `got` holds what `want` holds: a Set with the same members, an array with the same items in order, or the same value. */
function same(want: unknown, got: unknown): boolean {
  if (want instanceof Set) {
    const g = got as ReadonlySet<unknown> | undefined;
    return typeof g?.has === 'function' && g.size === want.size && [...want].every((v) => g.has(v));
  }
  if (Array.isArray(want)) return Array.isArray(got) && got.length === want.length && want.every((v, i) => got[i] === v);
  return got === want;
}
