// The KV tiers as one feature: the sealer CACHE_KEY makes, the KV copy of fetched key
// sets, the KV verify cache (L2) and its write admission (features/all.ts).

import { openKvTiers } from '../kv-parts.js';
import type { KvTiersFeature } from './registry.js';

/**
 * The KV verify cache and the KV copy of key sets (`cache.verify`, `cache.jwks`, with CACHE_KEY set).
 *
 * @example
 * const guard = createGuard(config, { stages: [kvTiers] });
 */
export const kvTiers: KvTiersFeature = { name: 'kvTiers', openKvTiers };
