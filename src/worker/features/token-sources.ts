// Token sources other than the Authorization header alone (`tokenSources` with a cookie
// or another header, and a Cloudflare Access issuer's defaults) as one feature
// (src/bearer/token.ts). Without it the guard reads Authorization only
// (authorization-token.ts), which is what a config without `tokenSources` asks. See registry.ts.

import { dropToken, findToken } from '../../bearer/token.js';
import type { TokenSourcesFeature } from './registry.js';

/**
 * Cookies and other headers as token sources (`tokenSources`).
 *
 * @example
 * const guard = createGuard(config, { stages: [tokenSources] });
 */
export const tokenSources: TokenSourcesFeature = {
  name: 'tokenSources',
  findToken,
  dropToken,
  build: (b) => {
    b.pieces.tokens = tokenSources;
  },
};
