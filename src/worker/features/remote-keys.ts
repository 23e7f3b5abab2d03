// Remote key sets (`jwksUrl`) and OpenID discovery as one feature (see features/registry.ts).

import { keySetTiers, RemoteKeys } from '../remote-keys.js';
import type { RemoteKeysFeature } from './registry.js';

/**
 * Key sets fetched from `jwksUrl` or found by discovery.
 *
 * @example
 * const guard = createGuard(config, { stages: [keySets, remoteKeys] });
 */
export const remoteKeys: RemoteKeysFeature = {
  name: 'remoteKeys',
  RemoteKeys,
  open: async (setup) => {
    const remote = new RemoteKeys(setup, await keySetTiers(setup));
    return {
      sets: remote.sets,
      writes: remote.tiers,
      keysOf: (is) => {
        const src = is.source;
        if (src.kind === 'jwksUrl') return { jwks: remote.keySet(src.url), id: src.url, fetchedFor: is.issuer };
        // A discovered source answers for the one issuer it was found for.
        return { jwks: remote.discovered(is.issuer[0]!), id: 'discovery', fetchedFor: [is.issuer[0]!] };
      },
    };
  },
};
