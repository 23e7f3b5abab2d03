// The KV tiers of one guard, built in two steps around the verifier (build.ts): the
// sealer CACHE_KEY makes and the KV copy of key sets first (remote key sets write
// through it), then the verify stage's L2 (its policy id names every issuer's keys).
// Reached through the kvTiers part only, so a guard without KV tiers bundles none of it.

import { encode } from '../b64.js';
import { digest } from '../digest.js';
import type { KeySource } from '../keys/source.js';
import { ConfigError } from './config-error.js';
import type { GuardConfig } from './config-core.js';
import type { Counters } from './counters.js';
import { KvJwksStore } from './jwks-store.js';
import { KeyTags } from './key-tags.js';
import { L2Tier } from './stages/verify/l2-tier.js';
import type { KVLike } from './kv.js';
import { WriteAdmission } from './l2-admission.js';
import { sealerFromSecret, type Sealer } from './seal.js';
import { KvVerifyCache } from './verify-cache.js';

/** The KV bindings the tiers read. */
interface KvEnv {
  CACHE_KEY?: string;
  VERIFY_CACHE?: KVLike;
  JWKS_CACHE?: KVLike;
}

/** The first step's result: the sealer, the KV copy of key sets (when used), and the second step. */
export interface KvOpened {
  sealer: Sealer;
  jwksStore: KvJwksStore | undefined;
  /**
   * The L2 under a policy id derived from `identity` (every issuer's settings and keys); undefined without
   * cache.verify.
   */
  verifyTier(identity: unknown[], fetched: ReadonlyMap<string, KeySource>): L2Tier | undefined;
}

/**
 * The KV tiers for `config` (with CACHE_KEY set); a missing KV binding is a ConfigError.
 *
 * @example
 * const kv = await openKvTiers(config, env, counters, now, usesRemoteKeys(config));
 * const l2 = kv?.verifyTier(identity, fetched);
 */
export async function openKvTiers(
  config: GuardConfig,
  env: KvEnv,
  counters: Counters,
  now: () => number,
  remoteIssuers: boolean,
): Promise<KvOpened | undefined> {
  const sealer = await sealerFromSecret(env.CACHE_KEY);
  if (sealer === undefined) return undefined;
  let jwksStore: KvJwksStore | undefined;
  if (config.cache.jwks && remoteIssuers) {
    if (env.JWKS_CACHE === undefined) throw new ConfigError('cache.jwks', 'the JWKS_CACHE KV binding is missing');
    jwksStore = new KvJwksStore(env.JWKS_CACHE, sealer, config.cache.kvTimeoutMs, counters);
  }
  const verifyTier = (identity: unknown[], fetched: ReadonlyMap<string, KeySource>): L2Tier | undefined => {
    const c = config.cache;
    if (c.verifyAlgorithms.size === 0) return undefined;
    if (env.VERIFY_CACHE === undefined) throw new ConfigError('cache.verify', 'the VERIFY_CACHE KV binding is missing');
    const policyId = encode(digest('SHA-256', JSON.stringify(identity))).slice(0, 22);
    return new L2Tier({
      cache: new KvVerifyCache({
        kv: env.VERIFY_CACHE,
        sealer,
        policyId,
        maxTtl: c.verifyTtl,
        timeoutMs: c.kvTimeoutMs,
        counters,
      }),
      admission: new WriteAdmission({
        mode: c.verifyAdmission,
        perMinute: c.verifyWritesPerMinute,
        capacity: Math.max(1000, c.l1Max),
      }),
      keyTags: new KeyTags(fetched),
      config,
      counters,
      now,
    });
  };
  return { sealer, jwksStore, verifyTier };
}
