// The Worker an entry written by `edgejwt build-guard` starts: the config was parsed and
// checked at deploy time and arrives here as a literal (config-literal.ts), and the
// entry imports only the features that config uses, so an isolate loads neither the
// parser nor the rest. The known-answer self-test runs only when the config verifies on
// the Wasm core (HS*, EdDSA), the part it tests.

import type { GuardEnv } from './build.js';
import { buildParts } from './build.js';
import type { GuardConfig } from './config.js';
import { ConfigError } from './config-error.js';
import { configSource } from './config-source.js';
import type { WorkerHandler } from './default-worker.js';
import { workerGuard } from './embed.js';
import { givenFeatures, type GuardFeatures } from './features/registry.js';
import { Guard } from './guard.js';
import { PACKAGE_VERSION } from './package-version.js';
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
 * What `edgejwt build-guard` writes into the entry: the checked config (the isolate builds each
 * issuer's policy from it: build.ts), the GUARD_CONFIG it was compiled from (as JSON text with its
 * members in order), so a deployment whose GUARD_CONFIG was changed without a new build refuses to
 * serve instead of serving the old one, and the edgejwt version that wrote it: the config literal
 * has the shape of that version's GuardConfig, so an entry bundled with another version refuses too.
 *
 * @example
 * const compiled: CompiledConfig = { config, source: '{"issuers":[...]}', version: '0.1.0' };
 */
export interface CompiledConfig {
  config: GuardConfig;
  source: string;
  version: string;
}

/**
 * The guard Worker from a compiled config: `export default compiledWorker(compiled, { remoteKeys, keySets })`.
 *
 * @example
 * import { compiledWorker, keySets, remoteKeys } from 'edgejwt/worker/compiled';
 * export default compiledWorker({ config, source, version: '0.1.0' }, { remoteKeys, keySets });
 */
export function compiledWorker(compiled: CompiledConfig, features: GuardFeatures): WorkerHandler {
  const source = givenFeatures(features);
  // An entry from another version (or from one that wrote no version) holds a config of another shape: never read it.
  const sameVersion = compiled.version === PACKAGE_VERSION;
  const algorithms = sameVersion ? compiled.config.issuers.flatMap((is) => is.algorithms) : [];
  const start = (env: GuardEnv, deps: Parameters<typeof buildParts>[2] | undefined): Promise<Guard> => {
    if (!sameVersion) {
      const built = typeof compiled.version === 'string' ? `edgejwt ${compiled.version}` : 'an older edgejwt';
      return Promise.reject(new ConfigError('version', `built by ${built}, running ${PACKAGE_VERSION}: run edgejwt build-guard and deploy again`));
    }
    // The text the entry was built from, as sent, needs no parse; anything else is compared as JSON.
    if (env.GUARD_CONFIG !== undefined && env.GUARD_CONFIG !== compiled.source && configSource(env.GUARD_CONFIG) !== compiled.source) {
      return Promise.reject(new ConfigError('GUARD_CONFIG', 'differs from the config this Worker was built with: run edgejwt build-guard and deploy again'));
    }
    return buildParts(compiled.config, env, deps ?? {}, source).then((parts) => new Guard(parts));
  };
  const guard = workerGuard(start, undefined, usesWasmCore(algorithms) ? () => selfTest(algorithms) : () => Promise.resolve());
  // As the default Worker (default-worker.ts): built at module scope from the importable env.
  void import('cloudflare:workers').then((m: { env: Record<string, unknown> }) => guard.warm(m.env), () => undefined);
  return { fetch: guard.fetch };
}
