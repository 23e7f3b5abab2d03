// CACHE_KEY, the deployment secret that turns the KV tiers on: read and checked here,
// apart from the sealer (seal.ts), so a guard whose config uses no KV tier still refuses
// a malformed one without the kvTiers stage.

import { decodeSegment } from '../b64.js';
import { ConfigError } from './config-error.js';

/**
 * CACHE_KEY's bytes (base64url, at least 32); undefined when it is not set; ConfigError when it is malformed.
 *
 * @example
 * cacheKeyBytes(env.CACHE_KEY); // Uint8Array(32) or undefined
 */
export function cacheKeyBytes(secret: unknown): Uint8Array | undefined {
  if (secret === undefined || secret === null || secret === '') return undefined;
  const raw = typeof secret === 'string' ? decodeSegment(secret.trim(), 0, secret.trim().length) : undefined;
  if (raw === undefined || raw.length < 32)
    throw new ConfigError('CACHE_KEY', 'expected base64url of at least 32 random bytes');
  return raw;
}
