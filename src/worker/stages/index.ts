// The guard's chain: every stage, in the order the runner (runner.ts) calls them (each
// stage's `order` says the same). A guard runs the core stages (core.ts) and those it is
// given, in this order (start.ts); a stage of your own without an `order` runs after these.
// Stages without hooks (rules, tokenSources, kvTiers, remoteKeys, keySets, introspection, serviceOrigin,
// forwardPayload) are parts the stage before them reads when the config uses them. Adding a stage is its
// folder and its line here (its import, its place in the list, its name in the export below).

import type { GuardStage } from '../stage.js';
import { admin } from './admin/index.js';
import { claims } from './claims/index.js';
import { cors } from './cors/index.js';
import { credentials, tokenSources } from './credentials/index.js';
import { dpop } from './dpop/index.js';
import { forward, forwardPayload, serviceOrigin } from './forward/index.js';
import { introspection } from './introspection/index.js';
import { mtls } from './mtls/index.js';
import { observe } from './observe/index.js';
import { originAssertion } from './origin-assertion/index.js';
import { path, reservedPaths } from './path/index.js';
import { resource } from './resource/index.js';
import { revocationAdmin } from './revocation-admin/index.js';
import { revocation } from './revocation/index.js';
import { route, rules } from './route/index.js';
import { senderConstraint } from './sender-constraint/index.js';
import { keySets, kvTiers, remoteKeys, verify } from './verify/index.js';

/**
 * Every stage, in chain order: the default Worker's (`createGuard(config, { stages: defaultStages })`),
 * for a config read at run time.
 *
 * @example
 * import { createGuard, defaultStages } from 'edgejwt/worker';
 * const guard = createGuard(config, { stages: [...defaultStages, headerEcho] });
 */
export const defaultStages: readonly GuardStage[] = [
  admin, //             admin.path: the counters
  revocationAdmin, //   revocation.path: revoke, list
  resource, //          the RFC 9728 metadata; resource_metadata on every challenge
  observe, //           every other request counted
  cors, //              a preflight answered; CORS headers on every answer after it
  path, //              one canonical path (400 when it cannot be read one way)
  reservedPaths, //     another spelling of a guard endpoint: 404
  originAssertion, //   the assertion key set, without a token
  route, //             method override refused, public paths, the matching rules
  rules, //             (part) rules and publicPaths, for route and claims
  credentials, //       the token from the configured sources
  tokenSources, //      (part) cookies and other headers
  verify, //            L1 -> L2 (KV) -> the library: the identity
  kvTiers, //           (part) the KV verify cache and key-set copy
  remoteKeys, //        (part) jwksUrl and discovery
  keySets, //           (part) JWK sets and asymmetric keys
  introspection, //     (part) opaque tokens asked about (RFC 7662)
  claims, //            the issuer's and the rules' claims
  dpop, //              RFC 9449 proofs, replay, nonces
  mtls, //              RFC 8705 certificate-bound tokens
  senderConstraint, //  a cnf nobody proved: refused
  revocation, //        revoked tokens refused
  forward, //           identity headers, assertion, the configured origin only
  serviceOrigin, //     (part) origin: { service }
  forwardPayload, //    (part) the payload header
];

// Each stage by name, for edgejwt/worker (api.ts re-exports this module).
export {
  admin,
  revocationAdmin,
  resource,
  observe,
  cors,
  path,
  reservedPaths,
  originAssertion,
  route,
  rules,
  credentials,
  tokenSources,
  verify,
  kvTiers,
  remoteKeys,
  keySets,
  introspection,
  claims,
  dpop,
  mtls,
  senderConstraint,
  revocation,
  forward,
  serviceOrigin,
  forwardPayload,
};
