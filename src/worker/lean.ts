// edgejwt/worker/lean: the guard inside your own Worker with the optional features
// you import and pass, so your bundler leaves the others out. A config that uses a
// feature it was not given fails to start (ConfigError naming the setting).

import type { GuardDeps, GuardEnv } from './build.js';
import { buildParts } from './build.js';
import { parseConfig } from './config.js';
import type { EmbeddedGuard, GuardConfigSource } from './embed.js';
import { embeddedGuard, rawConfigOf } from './embed.js';
import { givenFeatures, type GuardFeatures } from './features/registry.js';
import { EmbeddableGuard } from './embeddable-guard.js';
import { selfTestFor } from './self-test-needed.js';

export { kvTiers } from './features/kv-tiers.js';
export { remoteKeys } from './features/remote-keys.js';
export { originAssertion } from './features/origin-assertion.js';
export { dpop } from './features/dpop.js';
export { mtls } from './features/mtls.js';
export { revocation } from './features/revocation.js';
export { keySets } from './features/key-sets.js';
export { cors } from './features/cors.js';
export { admin } from './features/admin.js';
export { rules } from './features/rules.js';
export { tokenSources } from './features/token-sources.js';
export { serviceOrigin } from './features/service-origin.js';
export { forwardPayload } from './features/forward-payload.js';
// The Durable Object classes a config can bind; the entry re-exports the ones it uses.
export { DpopReplayShard } from './dpop-replay/shard-object.js';
export { RevocationList } from './revocation/list-object.js';
export type { GuardFeatures, KvTiersFeature, RemoteKeysFeature, OriginAssertionFeature, DpopFeature, MtlsFeature, RevocationFeature, KeySetsFeature, CorsFeature, AdminFeature, RulesFeature, TokenSourcesFeature, ServiceOriginFeature, ForwardPayloadFeature } from './features/registry.js';
export type { AuthResult, EmbeddedGuard, GuardConfigSource } from './embed.js';
export type { GuardDeps, GuardEnv } from './build.js';

/**
 * What `createLeanGuard` takes besides the config: the features the config uses, and the deps `createGuard` takes.
 *
 * @example
 * const options: LeanGuardOptions = { features: { keySets, remoteKeys } };
 */
export interface LeanGuardOptions extends GuardDeps {
  features?: GuardFeatures;
}

/**
 * `createGuard` with explicit features: only the ones passed are bundled.
 *
 * @example
 * import { createLeanGuard, keySets, remoteKeys } from 'edgejwt/worker/lean';
 * const guard = createLeanGuard({ issuers: [{ issuer: 'https://id.example.com', audience: 'api', algorithms: ['RS256'], jwksUrl: 'https://id.example.com/jwks' }] }, { features: { keySets, remoteKeys } });
 * export default { fetch: guard.fetch };
 */
export function createLeanGuard(config?: GuardConfigSource, options: LeanGuardOptions = {}): EmbeddedGuard {
  const { features = {}, ...deps } = options;
  const source = givenFeatures(features);
  const check = (env: GuardEnv) => selfTestFor(config, env);
  return embeddedGuard((env, d) => buildParts(parseConfig(rawConfigOf(config, env)), env, d ?? {}, source).then((parts) => new EmbeddableGuard(parts)), deps, check);
}
