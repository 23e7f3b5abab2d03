// An issuer's `mtls` setting (RFC 8705 certificate-bound tokens), read here so the
// issuer parser does not load the stage (mtls-stage.ts) that checks it.

import { ConfigError } from '../../config-error.js';

/**
 * `required`: every token of the issuer must be bound and match; `allowed`: a bound token must match, an unbound one
 * passes.
 */
export type MtlsMode = 'required' | 'allowed';

/**
 * An issuer's `mtls` setting, or undefined when it is not set.
 *
 * @example
 * parseMtlsMode('required', 'issuers[0].mtls'); // 'required'
 */
export function parseMtlsMode(v: unknown, setting: string): MtlsMode | undefined {
  if (v === undefined) return undefined;
  if (v !== 'required' && v !== 'allowed') throw new ConfigError(setting, 'expected "required" or "allowed"');
  return v;
}
