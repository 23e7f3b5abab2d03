// An issuer entry's checks on a token beyond its key, `iss` and `aud`: the header
// `typ` and `maxTokenAge`. Both go to the library as they are (src/options.ts,
// src/claims.ts), which does the checking; this only reads them from the config.

import { ConfigError } from './config-error.js';

/** The longest `maxTokenAge` accepted: one year. */
export const MAX_TOKEN_AGE_LIMIT = 31_536_000;

/** What an issuer entry may require of a token besides key, iss and aud. */
export interface IssuerChecks {
  /** Required header `typ` (`at+jwt` for RFC 9068 access tokens), letter case and `application/` ignored. */
  typ?: string;
  /**
   * Seconds: a token whose `iat` is older is refused (as expired). `iat` is then
   * required, and an `iat` later than now plus `clockTolerance` is refused.
   */
  maxTokenAge?: number;
}

/**
 * `typ` and `maxTokenAge` of one issuer entry; a ConfigError naming the setting when either is wrong.
 *
 * @example
 * parseIssuerChecks({ typ: 'at+jwt', maxTokenAge: 3600 }, 'issuers[0]'); // { typ: 'at+jwt', maxTokenAge: 3600 }
 */
export function parseIssuerChecks(v: Record<string, unknown>, at: string): IssuerChecks {
  const out: IssuerChecks = {};
  if (v.typ !== undefined) {
    if (typeof v.typ !== 'string' || v.typ.length === 0) throw new ConfigError(`${at}.typ`, 'expected a non-empty string');
    out.typ = v.typ;
  }
  const age = v.maxTokenAge;
  if (age !== undefined) {
    if (typeof age !== 'number' || !Number.isInteger(age) || age < 1 || age > MAX_TOKEN_AGE_LIMIT) {
      throw new ConfigError(`${at}.maxTokenAge`, `expected whole seconds from 1 to ${MAX_TOKEN_AGE_LIMIT}`);
    }
    out.maxTokenAge = age;
  }
  return out;
}
