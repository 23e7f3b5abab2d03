// The guard from GUARD_CONFIG as text or an object: parse and check it (config.ts),
// then build its parts with the stages it was given (features/registry.ts).
// `createGuard` (edgejwt/worker) and the default Worker start here.

import { buildParts, type GuardDeps, type GuardEnv } from './build.js';
import { parseConfig } from './config.js';
import { embeddedGuard, rawConfigOf, type EmbeddedGuard, type GuardConfigSource } from './embed.js';
import { allFeatures } from './features/all.js';
import { byName, givenFeatures, type FeatureSource, type GuardStage } from './features/registry.js';
import { Guard } from './guard.js';
import { selfTestFor } from './self-test-needed.js';

/**
 * What `createGuard` takes besides the config: the stages the config may use, and the deps tests swap.
 *
 * @example
 * const options: GuardOptions = { stages: [keySets, remoteKeys] };
 */
export interface GuardOptions extends GuardDeps {
  /** The stages this guard may use (default none: a config that needs one fails to start naming the setting). */
  stages?: readonly GuardStage[];
}

/**
 * Build a guard from the environment (throws ConfigError on a bad configuration); `rawConfig` replaces GUARD_CONFIG.
 * Every stage is given unless `features` says otherwise. For code that keeps the Guard itself (tests, benches).
 *
 * @example
 * const guard = await startGuard(env, { log: (line) => console.log(line) });
 * const res = await guard.handle(request, ctx);
 */
export function startGuard(
  env: GuardEnv,
  deps: GuardDeps = {},
  rawConfig?: unknown,
  features: FeatureSource = allFeatures,
): Promise<Guard> {
  return startWith(features)(env, deps, rawConfig);
}

/** Starts a Guard with the features `features` gives. */
function startWith(features: FeatureSource): (env: GuardEnv, deps: GuardDeps, rawConfig?: unknown) => Promise<Guard> {
  return async (env, deps, rawConfig) => {
    const config = parseConfig(rawConfig === undefined ? env.GUARD_CONFIG : rawConfig);
    return new Guard(await buildParts(config, env, deps, features));
  };
}

/**
 * Build the guard for a Worker from the stages you import: only those are bundled, and a config that
 * uses a stage it was not given fails to start (a 500 naming the setting). Without `config`,
 * GUARD_CONFIG is read from the env. One guard is built per env object (per isolate) and reused.
 * `defaultStages` gives every stage, for a config read at run time.
 * @example
 * import { createGuard, keySets, remoteKeys } from 'edgejwt/worker';
 * const issuer = { issuer: 'https://id.example.com', audience: 'api', algorithms: ['RS256'] };
 * const guard = createGuard(
 *   { issuers: [{ ...issuer, jwksUrl: 'https://id.example.com/jwks' }] },
 *   { stages: [keySets, remoteKeys] },
 * );
 * export default {
 *   async fetch(request, env, ctx) {
 *     const auth = await guard.authenticate(request, env, ctx);
 *     if (!auth.ok) return auth.response;
 *     return Response.json({ hello: auth.payload?.sub ?? 'anonymous' });
 *   },
 * };
 */
export function createGuard(config?: GuardConfigSource, options?: GuardOptions): EmbeddedGuard {
  // Only a config on the Wasm core (HS*, EdDSA) is checked: an RS/PS/ES-only guard never starts the core.
  return makeGuard(config, options, (env) => selfTestFor(config, env));
}

/** createGuard with the known-answer check `warm` runs made swappable (tests prove a failed one fails closed). */
export function makeGuard(
  config: GuardConfigSource | undefined,
  options: GuardOptions | undefined,
  check: (env: GuardEnv) => Promise<void>,
): EmbeddedGuard {
  const { stages = [], ...deps } = options ?? {};
  const start = startWith(givenFeatures(byName(stages)));
  const withDeps = options === undefined ? undefined : deps;
  return embeddedGuard((env, d) => start(env, d ?? {}, rawConfigOf(config, env)), withDeps, check);
}
