// Confirmation claims (RFC 7800 `cnf`): a token that names a key its presenter must
// prove is no bearer token. Whoever accepts a token checks here that every member
// of its `cnf` was proven for this request, and refuses it otherwise (RFC 9449 §7.2,
// RFC 8705 §3). Shared by the guard and the Hono middleware.

import { ownClaim } from '../claims.js';

/** What the request proved: the DPoP key's thumbprint, the client certificate's SHA-256 thumbprint. */
export interface ProvenKeys {
  readonly jkt?: string | undefined;
  readonly x5t?: string | undefined;
}

/**
 * The `cnf` member of a verified payload that this request did not prove (`cnf`,
 * `cnf.jkt`, `cnf.x5t#S256`, or any other member: nothing proves those here), or
 * undefined when there is no `cnf` or every member matches what was proven. An
 * empty `cnf` object names no key and passes.
 *
 * @example
 * unprovenConfirmation({ sub: 'a', cnf: { jkt: 'NzbL...' } }, {}); // 'cnf.jkt'
 * unprovenConfirmation({ sub: 'a', cnf: { jkt: 'NzbL...' } }, { jkt: 'NzbL...' }); // undefined
 */
export function unprovenConfirmation(
  payload: Readonly<Record<string, unknown>>,
  proven: ProvenKeys,
): string | undefined {
  const cnf = ownClaim(payload, 'cnf');
  if (cnf === undefined) return undefined;
  if (typeof cnf !== 'object' || cnf === null || Array.isArray(cnf)) return 'cnf';
  for (const name of Object.keys(cnf)) {
    const value = (cnf as Record<string, unknown>)[name];
    if (name === 'jkt' && typeof value === 'string' && value === proven.jkt) continue;
    if (name === 'x5t#S256' && typeof value === 'string' && value === proven.x5t) continue;
    // jwk, jku, kid, jwe, x5t (SHA-1) and the rest: no stage proves them, so the token cannot be used.
    return `cnf.${name}`;
  }
  return undefined;
}
