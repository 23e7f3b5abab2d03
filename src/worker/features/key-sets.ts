// Inline key sets (`jwks`) as one feature: a guard whose issuers all use an HMAC secret
// (secretBinding) or a fetched key set never asks for it. See registry.ts.

import { createLocalJWKSet } from '../../keys/local.js';
import type { KeySetsFeature } from './registry.js';

/**
 * Key sets and asymmetric algorithms (`jwks`, `jwksUrl`, discovery; RS*, PS*, ES*, EdDSA).
 *
 * @example
 * const parts = await buildParts(config, env, {}, givenFeatures({ keySets, remoteKeys }));
 */
export const keySets: KeySetsFeature = {
  createLocalJWKSet,
  // Read at the first token for this issuer (keys/local.ts), each key built when a token
  // first selects it: a set with no usable or a broken key refuses that issuer's tokens
  // (401). `edgejwt check-config` refuses such a set before a deploy.
  keysOf: (is) => {
    const jwks = (is.source as { jwks: unknown }).jwks;
    return { jwks: createLocalJWKSet(jwks as never), id: jwks, fetchedFor: [] };
  },
};
