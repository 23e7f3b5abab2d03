// Remote key sets (`jwksUrl`) and OpenID discovery as one feature (see features/registry.ts).

import { RemoteKeys } from '../remote-keys.js';
import type { RemoteKeysFeature } from './registry.js';

/**
 * Key sets fetched from `jwksUrl` or found by discovery.
 *
 * @example
 * import { createLeanGuard, keySets, remoteKeys } from 'edgejwt/worker/lean';
 * const guard = createLeanGuard(config, { features: { keySets, remoteKeys } });
 */
export const remoteKeys: RemoteKeysFeature = { RemoteKeys };
