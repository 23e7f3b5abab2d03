// What every stage of one guard shares: the checked config, the library verifier over every
// issuer, the counters, the key-set tiers' writes, the log and the clock (build.ts makes them),
// and the Worker bindings they come from.

import type { RemoteJWKSet } from '../keys/remote.js';
import type { TwoStepVerifier } from '../verify-path.js';
import type { GuardConfig } from './config-core.js';
import type { Counters } from './counters.js';
import type { KVLike } from './kv.js';
import type { AnalyticsLike } from './stages/observe/observe.js';
import type { RejectionLog } from './stages/observe/rejection-log.js';
import type { IntrospectionStage } from './stages/introspection/introspection-stage.js';
import type { L2Tier } from './stages/verify/l2-tier.js';
import type { VerifyTiers } from './stages/verify/verify-tiers.js';

/**
 * The Worker bindings the guard reads. The `Env` that `wrangler types` generates for
 * the guard's wrangler.toml is accepted as it is.
 *
 * @example
 * export default { fetch: (request: Request, env: Env, ctx: ExecutionContext) => guard.fetch(request, env, ctx) };
 */
export interface GuardEnv {
  GUARD_CONFIG?: unknown;
  CACHE_KEY?: string;
  VERIFY_CACHE?: KVLike;
  JWKS_CACHE?: KVLike;
  /** Workers Analytics Engine dataset: one data point per request outcome when bound. */
  ANALYTICS?: AnalyticsLike;
  /**
   * Secrets and service bindings named in GUARD_CONFIG. `any`, not `unknown`: the `Env`
   * that `wrangler types` writes is an interface, and TypeScript gives an interface no
   * implicit index signature, so only an `any` index accepts it. The guard reads these
   * as `unknown` and checks each one.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  [binding: string]: any;
}

export type { AnalyticsLike };

/**
 * What tests (and embedders) may swap: the network and the clock.
 *
 * @example
 * // fetch is called as a plain function: wrap a binding's method, which needs its object as `this`.
 * const deps: GuardDeps = { fetch: (input, init) => env.EGRESS.fetch(input, init) };
 */
export interface GuardDeps {
  /** Called as a plain function, never as a method: pass `(i, o) => binding.fetch(i, o)`, not `binding.fetch`. */
  fetch?: typeof fetch;
  now?: () => number;
  log?: (line: string) => void;
}

/**
 * What a guard runs with, shared by its stages.
 *
 * @example
 * const parts = await buildParts(config, env, {}, use);
 */
export interface GuardParts {
  config: GuardConfig;
  /** open + verifyOpened let the L2 decision read iss and alg from the one parse the verify uses. */
  verifier: TwoStepVerifier;
  counters: Counters;
  /** The writes of the key-set tiers (Cache API, KV), handed to waitUntil once a verify settles. */
  jwksStore: { drain(): Promise<void> | undefined } | undefined;
  remoteSets: RemoteJWKSet[];
  analytics: AnalyticsLike | undefined;
  rejections: RejectionLog;
  /** `issuers[].introspection`: where opaque tokens go instead of the library (set by the verify stage). */
  introspection?: IntrospectionStage | undefined;
  /** With cache.verify: the verify stage's KV tier (the kvTiers part's, l2-tier.ts). */
  l2?: L2Tier | undefined;
  /** The verify stage's tiers (L1, L2, the library), once the verify stage is built. */
  tiers?: VerifyTiers;
  fetch: typeof fetch;
  now: () => number;
  log: (line: string) => void;
}
