// The library's full key handling as one feature: JWK sets (inline, fetched, discovered)
// and asymmetric keys. A guard whose issuers all use an HMAC secret (secretBinding) runs
// without it, on edgejwt/hmac's policies (src/hmac/source.ts), so its bundle carries no
// JWK, CryptoKey or key-set code. See registry.ts.

import { createLocalJWKSet } from '../../keys/local.js';
import { buildPolicy } from '../../options.js';
import type { KeySetsFeature } from './registry.js';

/**
 * Key sets and asymmetric algorithms (`jwks`, `jwksUrl`, discovery; RS*, PS*, ES*, EdDSA).
 *
 * @example
 * const guard = createGuard(config, { stages: [keySets, remoteKeys] });
 */
export const keySets: KeySetsFeature = {
  name: 'keySets',
  buildPolicy,
  createLocalJWKSet,
  // Read at the first token for this issuer (keys/local.ts), each key built when a token
  // first selects it: a set with no usable or a broken key refuses that issuer's tokens
  // (401). `edgejwt check-config` refuses such a set before a deploy.
  keysOf: (is) => {
    const jwks = (is.source as { jwks: unknown }).jwks;
    return { jwks: createLocalJWKSet(jwks as never), id: jwks, fetchedFor: [] };
  },
};
