// The `cache` section (the per-isolate L1, the KV verify cache L2, the Cache API and KV
// copies of key sets) and the `jwks` section (fetch timeout and cooldown of remote key sets).

import { ConfigError } from './config-error.js';
import { num, section, strList } from './config-values.js';
import type { Admission } from './l2-admission.js';
import { L2_DEFAULT_ALGORITHMS } from './l2-defaults.js';
import { CACHE_KEYS, JWKS_KEYS } from './config-keys.js';

export interface CacheConfig {
  /** Algorithms whose verifications go to the KV verify cache (empty: off). */
  verifyAlgorithms: ReadonlySet<string>;
  jwks: boolean;
  /** Keep fetched key sets and discovery documents in this data centre's Cache API (with CACHE_KEY). */
  jwksColo: boolean;
  /** Upper bound on a KV verify entry's life, seconds. */
  verifyTtl: number;
  /** Entries in the per-isolate L1. */
  l1Max: number;
  /** A KV read slower than this is a miss, ms. */
  kvTimeoutMs: number;
  /** Which verifications are written to KV: on a token's second sighting in the isolate, or always. */
  verifyAdmission: Admission;
  /** KV verify-cache writes allowed per isolate per minute. */
  verifyWritesPerMinute: number;
}

/**
 * The `cache` section; `algorithms` are those of every issuer (`cache.verify` may name only those).
 *
 * @example
 * parseCache({ verify: true }, new Set(['ES256', 'RS256'])).verifyAlgorithms; // Set { 'ES256' }
 */
export function parseCache(v: unknown, algorithms: ReadonlySet<string>): CacheConfig {
  const c = section(v, 'cache', CACHE_KEYS) ?? {};
  let verify: string[];
  if (c.verify === undefined || c.verify === false) verify = [];
  else if (c.verify === true) verify = L2_DEFAULT_ALGORITHMS.filter((a) => algorithms.has(a));
  else if (c.verify === 'all') verify = [...algorithms];
  else {
    verify = strList(c.verify, 'cache.verify', true);
    for (const [j, a] of verify.entries())
      if (!algorithms.has(a)) throw new ConfigError(`cache.verify[${j}]`, 'not an algorithm of any issuer');
  }
  if (c.jwks !== undefined && typeof c.jwks !== 'boolean')
    throw new ConfigError('cache.jwks', 'expected true or false');
  if (c.jwksColo !== undefined && typeof c.jwksColo !== 'boolean')
    throw new ConfigError('cache.jwksColo', 'expected true or false');
  const admission = c.verifyAdmission ?? 'seen-twice';
  if (admission !== 'seen-twice' && admission !== 'always')
    throw new ConfigError('cache.verifyAdmission', 'expected "seen-twice" or "always"');
  return {
    verifyAlgorithms: new Set(verify),
    jwks: c.jwks !== false,
    jwksColo: c.jwksColo !== false,
    // KV refuses expirationTtl under 60 s.
    verifyTtl: num(c.verifyTtl, 'cache.verifyTtl', 300, 60, 86_400),
    l1Max: num(c.l1Max, 'cache.l1Max', 1000, 0, 100_000),
    kvTimeoutMs: num(c.kvTimeoutMs, 'cache.kvTimeoutMs', 100, 1, 10_000),
    verifyAdmission: admission,
    verifyWritesPerMinute: num(c.verifyWritesPerMinute, 'cache.verifyWritesPerMinute', 60, 1, 100_000),
  };
}

/** The raw `jwks` section, keys checked (its values are read where parseConfig sets them). */
export function jwksSection(v: unknown): Record<string, unknown> {
  return section(v, 'jwks', JWKS_KEYS) ?? {};
}
