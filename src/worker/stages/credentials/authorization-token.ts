// The default `tokenSources`, the Authorization header alone, read without the
// tokenSources feature (features/token-sources.ts: cookies, other headers), so a
// guard whose config reads only Authorization bundles no cookie or custom-header code.
// For that one source it answers exactly as findToken and dropToken (src/bearer/token.ts).

import { fromAuthorization } from '../../../bearer/token.js';
import type { TokenReader } from '../../features/registry.js';

/**
 * findToken and dropToken for `tokenSources: [{ header: "Authorization" }]` (authorizationOnly in registry.ts).
 *
 * @example
 * AUTHORIZATION_TOKEN.findToken(request.headers, config.tokenSources, false); // { kind: 'token', token } for `Bearer <token>`
 */
export const AUTHORIZATION_TOKEN: TokenReader = {
  findToken: (headers, _sources, dpop = false) => fromAuthorization(headers.get('authorization'), dpop),
  dropToken: (headers) => headers.delete('authorization'),
};
