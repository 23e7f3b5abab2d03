// `jwks.maxAgeMs`: the longest the guard uses a fetched key set before asking the
// issuer again, whatever its Cache-Control says, and what a response with no
// Cache-Control at all gets (oidc-provider sends none). It also bounds how long a
// key removed from the set keeps verifying: cached verdicts (L1, L2, see
// key-tags.ts and src/cache.ts) live no longer than the set that proved them is fresh.
// `jwks.staleMs`: past that freshness, how long the set still serves while its issuer
// fails (the library's staleDuration; the tiers keep a copy as long); after it, 503.

import { ConfigError } from './config-error.js';
import { num } from './config-values.js';

/** The library's own upper bound (RemoteJWKSetOptions.cacheMaxAge), kept as the default. */
export const JWKS_MAX_AGE_DEFAULT_MS = 600_000;
/** At most one fetch per set per isolate every 5 s, whatever is configured. */
const MIN_MS = 5_000;
/** A day: a longer life would outlast any sane key rotation. */
const MAX_MS = 86_400_000;
/** The library's staleDuration default: an hour of issuer outage rides on the last good set. */
export const JWKS_STALE_DEFAULT_MS = 3_600_000;
/** A day: past it a set is too old to trust, and an outage that long needs a person, not a cache. */
const STALE_MAX_MS = 86_400_000;
/** The library's lower bound for `max-age=0` / `no-store` issuers, unless maxAgeMs is shorter. */
const FLOOR_MS = 30_000;

/**
 * `jwks.maxAgeMs` from GUARD_CONFIG (default 600000).
 *
 * @example
 * parseJwksMaxAge(120_000); // 120000: key sets are refetched at least every two minutes
 */
export function parseJwksMaxAge(v: unknown): number {
  if (v === undefined) return JWKS_MAX_AGE_DEFAULT_MS;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < MIN_MS || v > MAX_MS) {
    throw new ConfigError('jwks.maxAgeMs', `expected a number from ${MIN_MS} to ${MAX_MS}`);
  }
  return v;
}

/**
 * `jwks.staleMs` from GUARD_CONFIG (default 3600000); 0: fail closed as soon as the set
 * is stale and the issuer fails.
 *
 * @example
 * parseJwksStale(600_000); // 600000: a failing issuer is covered for ten minutes past freshness
 */
export function parseJwksStale(v: unknown): number {
  return num(v, 'jwks.staleMs', JWKS_STALE_DEFAULT_MS, 0, STALE_MAX_MS);
}

/**
 * The ages a guard's remote key set gets: freshness from Cache-Control within
 * [min(30 s, maxAgeMs), maxAgeMs], maxAgeMs when the header is missing, then
 * staleMs of use while the issuer fails (the tiers keep their copy as long).
 *
 * @example
 * createRemoteJWKSet(url, { ...remoteSetAges(config.jwksMaxAgeMs, config.jwksStaleMs), fetch });
 */
export function remoteSetAges(
  maxAgeMs: number,
  staleMs: number,
): { cacheMaxAge: number; cacheMinAge: number; staleDuration: number } {
  return { cacheMaxAge: maxAgeMs, cacheMinAge: Math.min(FLOOR_MS, maxAgeMs), staleDuration: staleMs };
}
