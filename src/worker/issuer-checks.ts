// An issuer entry's checks on a token beyond its key, `iss` and `aud`: the header
// `typ`, `maxTokenAge` and the access-token `profile`. They go to the library as they
// are (src/options.ts, src/claims.ts), which does the checking; this only reads them.

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
  /**
   * `at+jwt`: the JWT access token profile (RFC 9068): typ at+jwt and iss, exp, aud, sub, client_id, iat, jti present.
   */
  profile?: 'at+jwt';
}

/**
 * `typ`, `maxTokenAge` and `profile` of one issuer entry; a ConfigError naming the setting when one is wrong.
 *
 * @example
 * parseIssuerChecks({ typ: 'at+jwt', maxTokenAge: 3600 }, 'issuers[0]'); // { typ: 'at+jwt', maxTokenAge: 3600 }
 * parseIssuerChecks({ profile: 'at+jwt' }, 'issuers[0]'); // { profile: 'at+jwt' }
 */
export function parseIssuerChecks(v: Record<string, unknown>, at: string): IssuerChecks {
  const out: IssuerChecks = {};
  if (v.typ !== undefined) {
    if (typeof v.typ !== 'string' || v.typ.length === 0)
      throw new ConfigError(`${at}.typ`, 'expected a non-empty string');
    out.typ = v.typ;
  }
  const age = v.maxTokenAge;
  if (age !== undefined) {
    if (typeof age !== 'number' || !Number.isInteger(age) || age < 1 || age > MAX_TOKEN_AGE_LIMIT) {
      throw new ConfigError(`${at}.maxTokenAge`, `expected whole seconds from 1 to ${MAX_TOKEN_AGE_LIMIT}`);
    }
    out.maxTokenAge = age;
  }
  if (v.profile !== undefined) {
    if (v.profile !== 'at+jwt') throw new ConfigError(`${at}.profile`, 'the one profile is "at+jwt"');
    // The library checks this too, but at build time and naming its own option.
    if (out.typ !== undefined && !/^(application\/)?at\+jwt$/i.test(out.typ))
      throw new ConfigError(`${at}.typ`, 'the at+jwt profile fixes typ; remove it');
    out.profile = 'at+jwt';
  }
  return out;
}
