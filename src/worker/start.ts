// The guard from GUARD_CONFIG as text or an object: parse and check it (config.ts),
// then build its parts with every optional feature at hand (features/all.ts).
// `createGuard` (edgejwt/worker) and the default Worker start here.

import { buildParts, type GuardDeps, type GuardEnv } from './build.js';
import { parseConfig } from './config.js';
import { embeddedGuard, rawConfigOf, type EmbeddedGuard, type GuardConfigSource } from './embed.js';
import { allFeatures } from './features/all.js';
import type { FeatureSource } from './features/registry.js';
import { Guard } from './guard.js';
import { selfTestFor } from './self-test-needed.js';

/**
 * Build a guard from the environment (throws ConfigError on a bad configuration); `rawConfig` replaces GUARD_CONFIG.
 * `createGuard` is the usual way in; this is for code that keeps the Guard itself.
 *
 * @example
 * const guard = await startGuard(env, { log: (line) => console.log(line) });
 * const res = await guard.handle(request, ctx);
 */
export async function startGuard(env: GuardEnv, deps: GuardDeps = {}, rawConfig?: unknown, features: FeatureSource = allFeatures): Promise<Guard> {
  return new Guard(await buildParts(parseConfig(rawConfig === undefined ? env.GUARD_CONFIG : rawConfig), env, deps, features));
}

/**
 * Build the guard for a Worker. Without `config`, GUARD_CONFIG is read from the env.
 * One guard is built per env object (per isolate in production) and reused. Every
 * optional feature is bundled (a config read at run time may use any) and set up only
 * when the config uses it.
 * @example
 * import { createGuard } from 'edgejwt/worker';
 * const guard = createGuard({ issuers: [{ issuer: 'https://id.example.com', audience: 'api', algorithms: ['RS256'], jwksUrl: 'https://id.example.com/jwks' }] });
 * export default {
 *   async fetch(request, env, ctx) {
 *     const auth = await guard.authenticate(request, env, ctx);
 *     if (!auth.ok) return auth.response;
 *     return Response.json({ hello: auth.payload?.sub ?? 'anonymous' });
 *   },
 * };
 */
export function createGuard(config?: GuardConfigSource, deps?: GuardDeps): EmbeddedGuard {
  // Only a config on the Wasm core (HS*, EdDSA) is checked: an RS/PS/ES-only guard never starts the core.
  return makeGuard(config, deps, (env) => selfTestFor(config, env));
}

/** createGuard with the known-answer check `warm` runs made swappable (tests prove a failed one fails closed). */
export function makeGuard(config: GuardConfigSource | undefined, deps: GuardDeps | undefined, check: (env: GuardEnv) => Promise<void>): EmbeddedGuard {
  return embeddedGuard((env, d) => startGuard(env, d, rawConfigOf(config, env)), deps, check);
}
