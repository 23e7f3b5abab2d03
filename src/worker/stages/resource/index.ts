// The resource stage (`resource`, RFC 9728): the protected resource metadata at its
// well-known path without a token, before CORS (its own answer lets any origin read it),
// and `resource_metadata` on every challenge the guard sends (resource-stage.ts).

import { answered } from '../../context.js';
import type { ReservingStage } from '../path/index.js';
import { reservedCheck } from '../path/reserved-paths.js';
import { parseResource } from '../../../resource/config.js';
import { resourceStage } from './resource-stage.js';
import { resourceSection } from './section.js';
import { dpopSection } from '../dpop/section.js';

/**
 * Protected resource metadata and `resource_metadata` on every challenge (`resource`).
 *
 * @example
 * const guard = createGuard(config, { stages: [resource] });
 */
export const resource: ReservingStage = {
  name: 'resource',
  reservedCheck,
  order: 30,
  // Read before the issuers: resource.id is their default audience (config-core.ts).
  section: { key: resourceSection, after: 'GUARD_CONFIG', parse: (v) => parseResource(v) },
  build: (b) => {
    const { config } = b;
    const resource = resourceSection.of(config);
    if (resource === undefined) return undefined;
    const stage = resourceStage({ issuers: config.issuers, dpop: dpopSection.of(config), resource });
    b.observe.challengeWith(stage);
    return { serve: (cx) => (cx.url.pathname === stage.path ? answered(stage.serve(cx.request.method)) : undefined) };
  },
};
