// One issuer entry of a checked config as the library's policy settings (no key), as the
// policy data the guard's verifier is built from, and the ConfigError a library refusal
// becomes. Imports no option-checking code: every guard entry bundles this module, and the
// library's own checks run only at deploy time (src/cli/policy-agreement.ts) and in tests.

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
 * The policy data the library's option code (options.ts policyData) makes of issuerSettings(is)
 * under the config's clockTolerance, built directly: parseConfig has already refused every
 * entry the library's checks would refuse (non-empty names, supported algorithms, typ, whole
 * seconds, a profile with its audience), so nothing is checked again and no option code is
 * bundled. Every guard builds its verifier from this (build.ts); `edgejwt check-config` and
 * `build-guard` refuse a config for which it differs from policyData (src/cli/policy-agreement.ts).
 *
 * @example
 * issuerPolicy(config.issuers[0], config.clockTolerance); // { algorithms: ['HS256'], claims: { issuer: Set {...}, ... } }
 */
export function issuerPolicy(is: IssuerConfig, clockTolerance: number): PolicyData {
  // Typed, every member written out: a member the library adds to ClaimPolicy does not compile here until it is named.
  const claims: ClaimPolicy = {
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
  return { algorithms: [...is.algorithms], claims };
}
