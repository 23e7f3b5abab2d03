// The revocation stage and its admin endpoint (`revocation`) as one feature (see features/registry.ts).

import { buildRevocation } from '../stages/revocation/revocation-stage.js';
import { reservedCheck } from '../stages/path/reserved-paths.js';
import type { RevocationFeature } from './registry.js';

/**
 * Revoked tokens refused at the edge, and the endpoint that revokes them.
 *
 * @example
 * const guard = createGuard(config, { stages: [revocation] });
 */
export const revocation: RevocationFeature = {
  name: 'revocation',
  buildRevocation,
  reservedCheck,
  build: (b) => {
    const { config } = b;
    b.pieces.revocation = buildRevocation(config.revocation!, b.env, b.now, config.realm, config);
    // admin.path and revocation.path in another spelling: computed once when both are set.
    b.pieces.reserved ??= reservedCheck(config);
  },
};
