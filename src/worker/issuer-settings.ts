// One issuer entry of a checked config as the library's policy settings (no key): the guard
// adds the key and builds its verifier through the library's own options code, as
// createVerifier does (build.ts); and the ConfigError a library refusal becomes.

import type { Algorithm } from '../algorithms.js';
import { isJwtError } from '../errors.js';
import type { PolicySettings } from '../options.js';
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
export function issuerSettings(is: IssuerConfig): PolicySettings & { issuer: string | readonly string[] } {
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
  if (isJwtError(e) || e instanceof TypeError)
    return new ConfigError(
      isJwtError(e) && e.setting !== undefined ? `issuers (${e.setting})` : 'issuers',
      isJwtError(e) ? e.message : 'invalid key',
    );
  return e;
}
