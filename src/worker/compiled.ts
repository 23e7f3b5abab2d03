// The Worker an entry written by `edgejwt build-guard` starts: the config was parsed and
// checked at deploy time and arrives here as a literal (config-literal.ts), and the
// entry imports only the features that config uses, so an isolate loads neither the
// parser nor the rest. The known-answer self-test runs only when the config verifies on
// the Wasm core (HS*, EdDSA), the part it tests.

import type { PolicyData } from '../options.js';
import type { GuardEnv } from './build.js';
import { buildParts } from './build.js';
import type { GuardConfig } from './config.js';
import { ConfigError } from './config-error.js';
import { configSource } from './config-source.js';
import type { WorkerHandler } from './default-worker.js';
import { workerGuard } from './embed.js';
import { givenFeatures, type GuardFeatures } from './features/registry.js';
import { Guard } from './guard.js';
import { selfTest, usesWasmCore } from './self-test.js';

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

/**
 * What `edgejwt build-guard` writes into the entry: the checked config, each issuer's policy as
 * the library's option code checked it (policy-literal.ts; the isolate runs none of that code),
 * and the GUARD_CONFIG it was compiled from (as JSON text with its members in order), so a
 * deployment whose GUARD_CONFIG was changed without a new build refuses to serve instead of
 * serving the old one.
 *
 * @example
 * const compiled: CompiledConfig = { config, policies, source: '{"issuers":[...]}' };
 */
export interface CompiledConfig {
  config: GuardConfig;
  policies: readonly PolicyData[];
  source: string;
}

/**
 * The guard Worker from a compiled config: `export default compiledWorker(compiled, { remoteKeys, keySets })`.
 *
 * @example
 * import { compiledWorker, keySets, remoteKeys } from 'edgejwt/worker/compiled';
 * export default compiledWorker({ config, policies, source }, { remoteKeys, keySets });
 */
export function compiledWorker(compiled: CompiledConfig, features: GuardFeatures): WorkerHandler {
  const source = givenFeatures(features);
  const algorithms = compiled.config.issuers.flatMap((is) => is.algorithms);
  const start = (env: GuardEnv, deps: Parameters<typeof buildParts>[2] | undefined): Promise<Guard> => {
    // The text the entry was built from, as sent, needs no parse; anything else is compared as JSON.
    if (env.GUARD_CONFIG !== undefined && env.GUARD_CONFIG !== compiled.source && configSource(env.GUARD_CONFIG) !== compiled.source) {
      return Promise.reject(new ConfigError('GUARD_CONFIG', 'differs from the config this Worker was built with: run edgejwt build-guard and deploy again'));
    }
    return buildParts(compiled.config, env, deps ?? {}, source, () => compiled.policies).then((parts) => new Guard(parts));
  };
  const guard = workerGuard(start, undefined, usesWasmCore(algorithms) ? () => selfTest(algorithms) : () => Promise.resolve());
  // As the default Worker (default-worker.ts): built at module scope from the importable env.
  void import('cloudflare:workers').then((m: { env: Record<string, unknown> }) => guard.warm(m.env), () => undefined);
  return { fetch: guard.fetch };
}
