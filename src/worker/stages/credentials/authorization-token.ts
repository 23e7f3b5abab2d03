// The default `tokenSources`, the Authorization header alone, read without the
// tokenSources part (credentials/index.ts: cookies, other headers), so a guard whose
// config reads only Authorization bundles no cookie or custom-header code.
// For that one source it answers exactly as findToken and dropToken (src/bearer/token.ts).

import { fromAuthorization, type dropToken, type findToken, type TokenSource } from '../../../bearer/token.js';

/** @example const reader: TokenReader = AUTHORIZATION_TOKEN; */
export interface TokenReader {
  /** Reads the token from every configured source (headers, cookies; src/bearer/token.ts). */
  findToken: typeof findToken;
  /** Drops it from each (forwardToken: false). */
  dropToken: typeof dropToken;
}

/**
 * findToken and dropToken for `tokenSources: [{ header: "Authorization" }]` (authorizationOnly).
 *
 * @example
 * AUTHORIZATION_TOKEN.findToken(request.headers, config.tokenSources, false);
 * // { kind: 'token', token } for `Bearer <token>`
 */
export const AUTHORIZATION_TOKEN: TokenReader = {
  findToken: (headers, _sources, dpop = false) => fromAuthorization(headers.get('authorization'), dpop),
  dropToken: (headers) => headers.delete('authorization'),
};

/**
 * Whether the token is read from the Authorization header alone (the default `tokenSources`):
 * then the guard needs no tokenSources part (AUTHORIZATION_TOKEN reads it).
 *
 * @example
 * authorizationOnly([{ header: 'Authorization' }]); // true
 * authorizationOnly([{ header: 'Authorization' }, { cookie: 'session' }]); // false
 */
export function authorizationOnly(sources: readonly TokenSource[]): boolean {
  const s = sources[0];
  return sources.length === 1 && s !== undefined && 'header' in s && s.header.toLowerCase() === 'authorization';
}
