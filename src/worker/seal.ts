// Values the guard keeps in KV (and the Cache API) are sealed with the library's
// Sealer (src/keys/seal.ts) under the deployment secret CACHE_KEY, bound to the key
// they are stored under: someone who can write there but lacks the secret cannot
// inject an identity or a key set, nor move a genuine entry to another token's key.

import { Sealer } from '../keys/seal.js';
import { cacheKeyBytes } from './cache-key.js';

export { Sealer };

/**
 * The guard's sealer from CACHE_KEY (base64url, at least 32 bytes); undefined when the secret is not set.
 *
 * @example
 * const sealer = await sealerFromSecret(env.CACHE_KEY);
 */
export async function sealerFromSecret(secret: unknown): Promise<Sealer | undefined> {
  const raw = cacheKeyBytes(secret);
  return raw === undefined ? undefined : Sealer.fromKey(raw);
}
