// This API as an OAuth protected resource (`resource`, RFC 9728 / RFC 8707) as one feature
// (src/worker/resource-stage.ts). Its audience default is the parser's (issuers-config.ts).
// See registry.ts.

import { reservedCheck } from '../stages/path/reserved-paths.js';
import { resourceStage } from '../stages/resource/resource-stage.js';
import type { ResourceFeature } from './registry.js';

/**
 * Protected resource metadata and `resource_metadata` on every challenge (`resource`).
 *
 * @example
 * const guard = createGuard(config, { stages: [resource] });
 */
export const resource: ResourceFeature = {
  name: 'resource',
  resourceStage,
  reservedCheck,
  build: (b) => {
    const { config } = b;
    b.pieces.resource = resourceStage({ ...config, resource: config.resource! });
    // The metadata path in another spelling: 404, like admin.path and revocation.path.
    b.pieces.reserved ??= reservedCheck(config);
  },
};
